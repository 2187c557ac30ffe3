/**
 * The tasks database's rows as read back, parsed: a row that is not what Harbor wrote (a hand
 * edit, a disk error) is a DATA_CORRUPT error naming the task and how to get past it, never a
 * value that merely claims its type.
 */
import { z } from 'zod';
import { ElicitationOrigin, Era, TaskError, TaskStatus, type TaskView } from '../../../preload/contract';
import { describeIssues } from '../contract-checks';
import { HarborError } from '../errors';
import { jsonColumn } from '../json-column';


export const TaskRow = z
  .object({
    server: z.string(),
    task_id: z.string(),
    tool: z.string(),
    era: Era,
    status: TaskStatus,
    status_message: z.string().nullable(),
    created_at: z.string(),
    last_updated_at: z.string(),
    ttl_ms: z.number().nullable(),
    has_ttl: z.number().int(),
    poll_interval_ms: z.number().nullable(),
    started_at: z.number(),
    ended_at: z.number().nullable(),
    result: jsonColumn(z.record(z.string(), z.unknown())).nullable(),
    error: jsonColumn(TaskError).nullable(),
    origin: jsonColumn(ElicitationOrigin).nullable(),
    answered_keys: jsonColumn(z.array(z.string())),
    cancel_requested: z.number().int(),
    delivered: z.number().int(),
  })
  .transform((row) => ({
    server: row.server,
    taskId: row.task_id,
    tool: row.tool,
    era: row.era,
    status: row.status,
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
    ...(row.has_ttl ? { ttlMs: row.ttl_ms } : {}),
    ...(row.poll_interval_ms !== null ? { pollIntervalMs: row.poll_interval_ms } : {}),
    startedAt: row.started_at,
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.origin !== null ? { origin: row.origin } : {}),
    answeredKeys: row.answered_keys,
    cancelRequested: row.cancel_requested === 1,
    delivered: row.delivered === 1,
  }));

/** A task as Harbor keeps it: what the contract shows, plus the result and what was already answered. */
export interface TaskRecord extends Omit<TaskView, 'hasResult' | 'cancelRequested'> {
  readonly result?: Readonly<Record<string, unknown>>;
  /** Modern `inputRequests` keys already answered: never shown to the person again. */
  readonly answeredKeys: readonly string[];
  readonly cancelRequested: boolean;
  /** Its outcome reached whoever waited for it (a caller, or the conversation it belongs to). */
  readonly delivered: boolean;
}

export function toView(record: TaskRecord): TaskView {
  const { result, answeredKeys: _answered, delivered: _delivered, cancelRequested, ...view } = record;
  return { ...view, hasResult: result !== undefined, ...(cancelRequested ? { cancelRequested } : {}) };
}

export function parseTaskRow(row: unknown, path: string): TaskRecord {
  const parsed = TaskRow.safeParse(row);
  if (parsed.success) return parsed.data;
  const key = row as { server?: unknown; task_id?: unknown };
  throw new HarborError(
    'DATA_CORRUPT',
    `Harbor's tasks database (${path}) has a corrupt row (task "${String(key.task_id)}" of "${String(key.server)}"): ${describeIssues(parsed.error, '(row)')}. ` +
      `Delete ${path} to forget every task Harbor followed (running tasks keep running on their servers).`,
  );
}
