import type { ConnectionState, EventPayload, LaunchFailureData } from '../../../../preload/contract';

const LISTS = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resource templates',
  prompts: 'prompts',
} as const;

/** One plain sentence (after the server's name) for a `servers.changed` event. */
export function describeChange(payload: EventPayload<'servers.changed'>): string {
  switch (payload.reason) {
    case 'state':
      return payload.summary ? describeState(payload.summary.state) : 'changed state';
    case 'catalog': {
      const lists = (payload.changed ?? []).map((c) => LISTS[c]);
      return lists.length ? `changed its ${lists.join(', ')}` : 'changed its catalog';
    }
    case 'resourceUpdated':
      return payload.uri ? `updated ${payload.uri}` : 'updated a resource';
    case 'config':
      return 'was reconfigured';
    case 'removed':
      return 'was removed';
    case 'stale': {
      const stale = payload.summary?.stale;
      if (!stale) return 'fetched its lists again';
      return `could not refresh its ${stale.lists.map((c) => LISTS[c]).join(', ')}: ${stale.message} (showing the lists from ${new Date(stale.since).toLocaleTimeString()})`;
    }
    default:
      return `changed (${String((payload as { reason: unknown }).reason)})`;
  }
}

function describeState(state: ConnectionState): string {
  switch (state.kind) {
    case 'stopped':
      return 'stopped';
    case 'starting':
      return 'is starting';
    case 'ready':
      return 'is ready';
    case 'restarting':
      return `is restarting (attempt ${state.attempt} of ${state.maxAttempts})`;
    case 'error':
      return `failed: ${state.message}`;
  }
}

/** A server that could not be started, after its name: waiting for the person, or failed and why. */
export function describeFailure(failure: LaunchFailureData): string {
  if (failure.code === 'CONSENT_REQUIRED' || failure.code === 'CONSENT_DENIED') return `was not started: it waits for your permission (${failure.message})`;
  if (failure.code === 'AUTH_REQUIRED') return `was not started: it needs you to sign in (${failure.message})`;
  return `could not start: ${failure.message}`;
}
