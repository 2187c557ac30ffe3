import { ProtocolError, SdkHttpError, type PriorDiscovery } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { Channel } from './channel';
import type { EraCache, EraFinding } from './era-cache';
import { ProbeInterruptedError, StrayOutputError } from './connection-failures';
import type { LaunchSpec } from './launch';

/** How one connect reaches a server: which era it may assume and which HTTP transport it uses. */
export interface EraPlan {
  /** A verdict from before (skips the probe), or undefined to negotiate. */
  readonly prior: PriorDiscovery | undefined;
  /** Legacy HTTP+SSE instead of Streamable HTTP. */
  readonly legacySse: boolean;
  /** Whether what this connect finds is news for the cache (it probed, or it fell back). */
  readonly learns: boolean;
}

/** The registry's "transport": "sse" hint: the person's choice, never probed, never cached. */
export function configuredSse(spec: LaunchSpec): boolean {
  return spec.transport === 'http' && spec.legacySse;
}

/** Where a connect starts: the cached verdict for this exact launch configuration, if any. */
export async function planFromCache(cache: EraCache, server: string, configHash: string, spec: LaunchSpec): Promise<EraPlan> {
  // HTTP+SSE predates 2026-07-28: nothing to probe, the era is legacy by definition. A remote
  // found to be HTTP+SSE-only before (same URL and headers) is not asked in Streamable HTTP again.
  if (configuredSse(spec)) return { prior: { kind: 'legacy' }, legacySse: true, learns: false };
  const cached = await cache.get(server, configHash);
  return { prior: cached?.prior, legacySse: spec.transport === 'http' && cached?.legacySse === true, learns: !cached };
}

/**
 * What to try after a failed first open: a cached verdict that no longer holds is dropped and the
 * server probed again; a remote that refuses Streamable HTTP the way legacy HTTP+SSE servers do
 * (400/404/405 without a modern error body) is retried over SSE; a stdio server that died on the
 * unknown `server/discover` probe (older SDKs exit on any pre-initialize request) is relaunched
 * as legacy. Undefined: nothing else to try.
 */
export function fallbackPlan(error: unknown, plan: EraPlan, spec: LaunchSpec): (EraPlan & { readonly forgetEra: boolean }) | undefined {
  // Sign-in problems are not transport problems: probing again would only ask for sign-in again.
  if (error instanceof HarborError && (error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_FAILED')) return undefined;
  // A program that writes something else than MCP on stdout is no era question either.
  if (error instanceof StrayOutputError) return undefined;
  // A cached verdict that no longer holds (the server was upgraded, or moved off HTTP+SSE):
  // forget it and probe from scratch. A configured "sse" hint is the person's and stays.
  if (plan.prior && !configuredSse(spec)) return { prior: undefined, legacySse: false, learns: true, forgetEra: true };
  if (spec.transport === 'http' && !plan.legacySse) {
    // The spec's rule: 400/404/405 whose body is not a modern JSON-RPC error (that would have
    // surfaced as a ProtocolError) means an endpoint that predates Streamable HTTP.
    const status = error instanceof SdkHttpError ? (error.status as number | undefined) : undefined;
    if ((status === 400 || status === 404 || status === 405) && !(error instanceof ProtocolError)) {
      return { prior: { kind: 'legacy' }, legacySse: true, learns: true, forgetEra: false };
    }
  }
  if (spec.transport === 'stdio' && error instanceof ProbeInterruptedError) {
    return { prior: { kind: 'legacy' }, legacySse: false, learns: true, forgetEra: false };
  }
  return undefined;
}

/**
 * The verdict an opened channel earned for the cache, if any. Legacy only because the probe was
 * answered too late (a server still starting up) is not a finding about the server: the next
 * connect asks again (see ProbeOutcome).
 */
export function findingToKeep(plan: EraPlan, spec: LaunchSpec, channel: Channel): EraFinding | undefined {
  if (!plan.learns || configuredSse(spec)) return undefined;
  const era = channel.client.getProtocolEra() ?? 'legacy';
  if (era === 'legacy' && channel.probe.answeredLate) return undefined;
  const discover = channel.client.getDiscoverResult();
  return era === 'modern' && discover ? { era, discover } : { era: 'legacy', sse: plan.legacySse };
}
