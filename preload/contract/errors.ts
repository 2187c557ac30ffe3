/**
 * Errors cross the boundary as data: a thrown Error through ipcMain.handle keeps only its string.
 * The codes are one closed list shared by the Host, the CLI (its exit codes) and the renderer.
 */
import { z } from 'zod';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNKNOWN_COMMAND',
  'FORBIDDEN',
  'INTERNAL',
  'CONFIG_INVALID',
  'CONFIG_IO',
  'SERVER_NOT_FOUND',
  'SERVER_EXISTS',
  'SERVER_DISABLED',
  'SPAWN_FAILED',
  /** The server runs in a sandbox, and the sandbox cannot run on this machine: the message says why, the fix, and how to opt out. */
  'SANDBOX_UNAVAILABLE',
  'CONNECT_FAILED',
  'CONNECTION_CLOSED',
  'PROTOCOL_ERROR',
  'TIMEOUT',
  'CANCELLED',
  'TOOL_NOT_FOUND',
  'CONSENT_REQUIRED',
  'CONSENT_STALE',
  'CONSENT_DENIED',
  'KEYCHAIN_UNAVAILABLE',
  'SECRET_MISSING',
  'AUTH_REQUIRED',
  /** Sign-in cannot succeed as things are (unsafe URL, no PKCE S256, issuer mix-up, rejected registration). */
  'AUTH_FAILED',
  'MODEL_NOT_CONFIGURED',
  'MODEL_ERROR',
  'CONVERSATION_NOT_FOUND',
  'CHAT_BUSY',
  /** Data Harbor stored (a database row, a cache file) is not what Harbor writes: the message names it and the fix. */
  'DATA_CORRUPT',
  /** The server needs the person to open a page first (MCP error -32042): `pages` lists them; then try again. */
  'URL_ELICITATION_REQUIRED',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Narrows a code that crossed a boundary untyped (e.g. read back from a window's message). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return ErrorCode.safeParse(code).success;
}

export const HarborErrorData = z.object({
  code: ErrorCode,
  message: z.string(),
  detail: z.string().optional(),
  /** CONSENT_STALE: which parts of the tool's definition changed since it was approved. */
  changed: z.array(z.string()).optional(),
  /** BAD_REQUEST about a value checked against a schema: each field that is wrong ("" is the value itself) and how. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** URL_ELICITATION_REQUIRED: the pages the server asks the person to open, with its reason for each. */
  pages: z.array(z.object({ url: z.string(), message: z.string(), elicitationId: z.string() })).optional(),
});
export type HarborErrorData = z.infer<typeof HarborErrorData>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: HarborErrorData };
