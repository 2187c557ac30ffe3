/**
 * Tasks: a server answered a tool call with a task (the Tasks extension on modern servers, the
 * 2025-11-25 core tasks on legacy ones) and Harbor follows it until it ends. Kept in the data
 * folder, so a task outlives the window, the turn and the app that started it.
 */
import { z } from 'zod';
import { Era } from './shared';
import { ElicitationOrigin, McpObject } from './server-views';

export const TaskStatus = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** The JSON-RPC error a failed task carries (or why Harbor gave up following it). */
export const TaskError = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export type TaskError = z.infer<typeof TaskError>;

export const TaskView = z.object({
  taskId: z.string(),
  server: z.string(),
  tool: z.string(),
  era: Era,
  status: TaskStatus,
  /** The server's own words on how the task is doing: shown as text, never as markup. */
  statusMessage: z.string().optional(),
  /** ISO 8601, as the server reported them. */
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  /** How long the server keeps the task after it was created (null: no limit). */
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
  /** When Harbor started it and saw it end (epoch ms, this machine's clock). */
  startedAt: z.number(),
  endedAt: z.number().optional(),
  /** Completed: Harbor holds the result (tasks.result). */
  hasResult: z.boolean(),
  error: TaskError.optional(),
  /** The chat tool call it runs for, if any: its result goes back into that conversation. */
  origin: ElicitationOrigin.optional(),
  /** Cancel was asked (tasks/cancel sent); the server decides when it stops. */
  cancelRequested: z.boolean().optional(),
});
export type TaskView = z.infer<typeof TaskView>;

const TaskKey = z.object({ server: z.string().min(1), taskId: z.string().min(1).max(1000) }).strict();

export const taskCommands = {
  /** The tasks Harbor knows, newest first (one server's with `server`). */
  'tasks.list': { request: z.object({ server: z.string().min(1).optional() }).strict(), response: z.array(TaskView) },
  /** Asks the server to stop a task (tasks/cancel). False when it has already ended. */
  'tasks.cancel': { request: TaskKey, response: z.object({ cancelled: z.boolean() }) },
  /** A task with its final result (a CallToolResult) once it completed. */
  'tasks.result': { request: TaskKey, response: z.object({ task: TaskView, result: McpObject.optional() }) },
};

export const taskEvents = {
  /** A task started, changed status or message, or ended. */
  'tasks.changed': z.object({ task: TaskView }),
};
