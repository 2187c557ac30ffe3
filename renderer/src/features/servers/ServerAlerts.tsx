import { useEffect } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { dismissKey, notify } from '../../ui/Toasts';
import { hintFor } from './error-hints';
import { healthOf } from './server-health';
import { useHarbor } from '../../app/services';
import { serverStatusStore } from './server-status';

/**
 * Says so when a server fails or starts waiting for the person (a launch to allow, a sign-in),
 * whatever page is open: one notification per server, replaced as its state moves on and closed
 * once it is ready again. What was already wrong when the window opened is left to the
 * navigation's indicator: a reload does not repeat old news.
 */
export function ServerAlerts() {
  const api = useHarbor();
  useEffect(() => {
    const store = serverStatusStore(api);
    // Every change the store takes in is looked at, not only the ones a render happens to see.
    let seen: Map<string, string> | undefined;
    const look = () => {
      const state = store.snapshot();
      if (state.status !== 'ready') return;
      const previous = seen;
      seen = new Map(state.value.map((server) => [server.name, signature(server)]));
      if (!previous) return;
      for (const server of state.value) {
        const now = seen.get(server.name)!;
        if (now === previous.get(server.name)) continue;
        if (server.state.kind === 'ready') dismissKey(keyOf(server.name));
        else if (now !== 'ok') announce(server);
      }
    };
    const stop = store.subscribe(look);
    look();
    return stop;
  }, [api]);
  return null;
}

/** What is worth a notification about a server's state: failed with this code, or fine. */
function signature(server: ServerSummary): string {
  const health = healthOf(server);
  return health.kind === 'ok' || server.state.kind !== 'error' ? 'ok' : `${health.kind}:${server.state.code}`;
}

const keyOf = (name: string) => `server:${name}`;

function announce(server: ServerSummary): void {
  if (server.state.kind !== 'error') return;
  const health = healthOf(server);
  const show = { label: 'Show', href: hrefFor('servers', server.name) };
  if (health.kind === 'attention' && server.state.code === 'CONSENT_DENIED') {
    // Denied is not waiting: say what was refused (the Host's words) and how to be asked again.
    notify({ key: keyOf(server.name), tone: 'warn', title: `${server.name} was not allowed to start`, body: `${server.state.message} Start it from its page to be asked again.`, action: show });
    return;
  }
  if (health.kind === 'attention') {
    notify({
      key: keyOf(server.name),
      tone: 'warn',
      title: health.reason === 'sign-in' ? `${server.name} needs you to sign in` : `${server.name} is waiting for your permission to start`,
      body: health.reason === 'sign-in' ? 'Sign in from its page to connect.' : 'Check what it runs, then allow it from its page.',
      action: show,
    });
    return;
  }
  const hint = hintFor(server, server.state);
  notify({ key: keyOf(server.name), tone: 'error', title: `${server.name} could not start`, body: hint?.title ?? server.state.message, action: show });
}
