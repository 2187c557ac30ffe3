/** Code mode: a script the model wrote, run in Harbor's sandbox, and the tool calls it made. */
import { z } from 'zod';
import { ErrorCode } from './errors';

/** How a script can fail besides the Host's own codes (which a tool call it did not catch carries). */
export const SCRIPT_ERROR_CODES = [
  /** The script threw (a syntax error, a bug, an error it did not catch). */
  'SCRIPT_ERROR',
  /** A tool answered with isError and the script did not catch it. */
  'TOOL_ERROR',
  'TIME_LIMIT',
  'MEMORY_LIMIT',
  'CALL_LIMIT',
  'OUTPUT_LIMIT',
] as const;

export const CodeRunErrorCode = z.union([z.enum(SCRIPT_ERROR_CODES), ErrorCode]);
export type CodeRunErrorCode = z.infer<typeof CodeRunErrorCode>;

export const CodeRunError = z.object({ code: CodeRunErrorCode, message: z.string() });
export type CodeRunError = z.infer<typeof CodeRunError>;

export const CodeCallStatus = z.enum(['running', 'awaiting-consent', 'done', 'error']);
export type CodeCallStatus = z.infer<typeof CodeCallStatus>;

/** One tool call a script made, brokered by the Host like a direct call (consent included). */
export const CodeCall = z.object({
  /** Its number within the script run, from 1. */
  id: z.number().int(),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  status: CodeCallStatus,
  /** How consent went, as for a direct call: "approved", "approved-once", "denied", … */
  approval: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  /** What the script's call threw (the tool's isError text, a denial, a timeout, …). */
  error: CodeRunError.optional(),
  /** The start of the value the script got, as JSON or text. */
  preview: z.string().optional(),
});
export type CodeCall = z.infer<typeof CodeCall>;

export const CodeLogLevel = z.enum(['log', 'info', 'warn', 'error', 'debug']);
export type CodeLogLevel = z.infer<typeof CodeLogLevel>;

export const CodeLog = z.object({ level: CodeLogLevel, text: z.string() });
export type CodeLog = z.infer<typeof CodeLog>;

/** A script run as the code card shows it, live and after a reload. */
export const CodeRun = z.object({
  script: z.string(),
  status: z.enum(['running', 'done', 'error']),
  calls: z.array(CodeCall),
  logs: z.array(CodeLog),
  /** What the script returned (JSON). */
  result: z.unknown().optional(),
  error: CodeRunError.optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
});
export type CodeRun = z.infer<typeof CodeRun>;
