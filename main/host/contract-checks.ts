/// <reference types="vite/client" />
/**
 * Checks of what main sends out — command responses (main/dispatch.ts) and Host events
 * (HostEvents.emit) — against the contract's schemas, so a shape drifting from the contract fails
 * loudly where it is produced instead of surprising the renderer.
 *
 * On in tests (vitest) and development builds (`electron-vite dev`): Vite sets import.meta.env.DEV
 * there. Off in built code (`npm run build`, the packaged app, the installed CLI, the benchmarks),
 * where the hot path pays nothing. HARBOR_CONTRACT_CHECKS=1 turns them on in built code too (the
 * integration tests run the built CLI with it).
 */
import type { z } from 'zod';
import type { events } from '../../preload/contract';
import { HarborError } from './errors';

/** Every event's payload schema (the contract's `events`). */
export type EventSchemas = typeof events;

export function contractChecksOn(env: NodeJS.ProcessEnv = process.env): boolean {
  // Optional chaining: code run outside Vite (no import.meta.env at all) counts as built code.
  return env.HARBOR_CONTRACT_CHECKS === '1' || import.meta.env?.DEV === true;
}

/**
 * The events' schemas when the checks are on, else none. Imported here, when asked, not with the
 * Host: building the contract's schemas is ~90 ms of CPU that a one-shot command with the checks
 * off (#32 goal 1) has no use for.
 */
export async function loadEventSchemas(env: NodeJS.ProcessEnv = process.env): Promise<EventSchemas | undefined> {
  return contractChecksOn(env) ? (await import('../../preload/contract')).events : undefined;
}

/** "servers.0.state.code: Invalid option…; name: Required", each issue with its path. */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || root}: ${issue.message}`).join('; ');
}

/**
 * Throws an INTERNAL HarborError naming `what` and every path that does not match. The value is
 * never replaced by the parsed one: with checks off the same value goes out, so the checks cannot
 * change behaviour, only reveal.
 */
export function assertMatchesContract(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new HarborError('INTERNAL', `${what} does not match the contract: ${describeIssues(parsed.error, '(root)')}`);
  }
}
