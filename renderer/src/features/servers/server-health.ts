import type { ConnectionState, ErrorCode, ServerSummary } from '../../../../preload/contract';

/** Why a server waits for the person rather than for a fix: a launch not allowed, a sign-in. */
export type AttentionReason = 'consent' | 'sign-in';

const ATTENTION: Partial<Record<ErrorCode, AttentionReason>> = {
  CONSENT_REQUIRED: 'consent',
  CONSENT_DENIED: 'consent',
  AUTH_REQUIRED: 'sign-in',
};

/** What a server's state asks of the person: nothing, their attention (allow, sign in), or a fix (it failed). */
export function healthOf(server: Pick<ServerSummary, 'enabled' | 'state'>): { readonly kind: 'ok' } | { readonly kind: 'attention'; readonly reason: AttentionReason } | { readonly kind: 'failed' } {
  const state: ConnectionState = server.state;
  if (!server.enabled || state.kind !== 'error') return { kind: 'ok' };
  const reason = ATTENTION[state.code];
  return reason ? { kind: 'attention', reason } : { kind: 'failed' };
}

export interface ServerHealth {
  /** Servers that failed (enabled, in error for a reason other than consent or sign-in). */
  readonly failed: readonly string[];
  /** Servers waiting for the person: a launch to allow, a sign-in. */
  readonly attention: ReadonlyArray<{ readonly name: string; readonly reason: AttentionReason }>;
}

export const HEALTHY: ServerHealth = { failed: [], attention: [] };

export function summarizeHealth(servers: readonly ServerSummary[]): ServerHealth {
  const failed: string[] = [];
  const attention: Array<{ name: string; reason: AttentionReason }> = [];
  for (const server of servers) {
    const health = healthOf(server);
    if (health.kind === 'failed') failed.push(server.name);
    else if (health.kind === 'attention') attention.push({ name: server.name, reason: health.reason });
  }
  return failed.length === 0 && attention.length === 0 ? HEALTHY : { failed, attention };
}

/** "1 server failed · 2 need attention", for a tooltip or a screen reader; empty when all is well. */
export function describeHealth(health: ServerHealth): string {
  const parts: string[] = [];
  if (health.failed.length) parts.push(`${health.failed.length} server${health.failed.length === 1 ? '' : 's'} failed`);
  if (health.attention.length) parts.push(`${health.attention.length} ${health.attention.length === 1 ? 'needs' : 'need'} your attention`);
  return parts.join(', ');
}
