/**
 * The sandbox servers run in: what this machine offers, what the sandbox refused a server (with
 * the one change that would allow it), and the "sandbox installed servers" setting.
 */
import { z } from 'zod';
import { ServerSummary } from './shared';

/** One edit of a server's "sandbox" rules, as a refusal suggests it. */
export const SandboxChangeData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('allowWrite'), path: z.string().min(1).max(4096) }).strict(),
  z.object({ kind: z.literal('allowDomain'), domain: z.string().min(1).max(300) }).strict(),
  z.object({ kind: z.literal('stopHiding'), path: z.string().min(1).max(4096) }).strict(),
]);
export type SandboxChangeData = z.infer<typeof SandboxChangeData>;

/** Something the sandbox refused a server: a write, a read or a connection. */
export const SandboxRefusalData = z.object({
  server: z.string(),
  /** When it was last seen (ms since the epoch). */
  at: z.number(),
  kind: z.enum(['write', 'read', 'network']),
  /** The path, or host:port. */
  target: z.string(),
  /** How often since the server was added or this was last allowed. */
  count: z.number().int().positive(),
  /** The change that would allow it, in words ("allow writing to /x") and as data. */
  /** The one change that would allow it: its label, the change, and the registry rule as written in harbor.json. */
  suggestion: z.object({ label: z.string(), change: SandboxChangeData, rule: z.string() }).optional(),
});
export type SandboxRefusalData = z.infer<typeof SandboxRefusalData>;

export const SandboxStatusData = z.object({
  platform: z.string(),
  /** Servers can run sandboxed on this machine. */
  available: z.boolean(),
  /** How: bubblewrap (Linux) or Seatbelt (macOS). */
  mechanism: z.enum(['bubblewrap', 'seatbelt']).optional(),
  /** Why not, and what to do. */
  reason: z.string().optional(),
  fix: z.string().optional(),
  /** The setting: servers installed from bundles or the gallery are sandboxed. */
  sandboxInstalled: z.boolean(),
});
export type SandboxStatusData = z.infer<typeof SandboxStatusData>;

const command = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });

export const sandboxCommands = {
  /** What this machine offers (checks it, once, by running a sandboxed test command) and the setting. */
  'sandbox.status': command(z.object({}).strict(), SandboxStatusData),
  /** What the sandbox refused: one server's, or every server's. */
  'sandbox.refusals': command(z.object({ server: z.string().min(1).optional() }).strict(), z.array(SandboxRefusalData)),
  /** Applies a suggested change to the server's sandbox rules (the server restarts with them). */
  'sandbox.allow': command(z.object({ server: z.string().min(1), change: SandboxChangeData }).strict(), ServerSummary),
  /** The "sandbox installed servers" setting. */
  'sandbox.setInstallDefault': command(z.object({ sandbox: z.boolean() }).strict(), SandboxStatusData),
};

export const sandboxEvents = {
  /** The sandbox refused a server something (first time, or again after a restart). */
  'sandbox.refused': SandboxRefusalData,
};
