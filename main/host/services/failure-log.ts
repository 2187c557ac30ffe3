/**
 * What the Host's event bus says went wrong, written to Harbor's own log as it happens: a server
 * that failed (its code, message and stderr tail), one that is being restarted after a crash, and
 * what a sandbox refused. The person sees these on the server's card; the log keeps them after the
 * card has moved on, for `harbor logs` and bug reports.
 */
import type { HostEvents } from '../events';
import type { Disposable } from '../lifecycle';
import { DisposableStore } from '../lifecycle';
import type { LogSink } from '../log/harbor-log';
import { refusalLine } from '../sandbox/refusal-line';

export function logFailures(events: HostEvents, log: LogSink): Disposable {
  const owned = new DisposableStore();
  /** The last state logged per server: a repeated `state` event with the same failure is not logged twice. */
  const last = new Map<string, string>();
  owned.add(
    events.onEvent('servers.changed', ({ name, reason, summary }) => {
      if (reason === 'removed') {
        last.delete(name);
        return;
      }
      if (reason !== 'state' || !summary) return;
      const state = summary.state;
      const key = state.kind === 'error' ? `error:${state.code}:${state.message}` : state.kind === 'restarting' ? `restarting:${state.attempt}` : state.kind;
      if (last.get(name) === key) return;
      last.set(name, key);
      if (state.kind === 'error') {
        log.write('error', {
          area: 'servers',
          server: name,
          code: state.code,
          message: state.message,
          ...(state.stderrTail ? { fields: { stderrTail: state.stderrTail } } : {}),
        });
      } else if (state.kind === 'restarting') {
        log.write('warn', {
          area: 'servers',
          server: name,
          message: `restarting (attempt ${state.attempt} of ${state.maxAttempts}) at ${new Date(state.nextAt).toISOString()}`,
        });
      }
    }),
  );
  owned.add(
    events.onEvent('sandbox.refused', (entry) => {
      // Counted refusals repeat: the first of each kind and target is the one worth a line.
      if (entry.count !== 1) return;
      log.write('warn', { area: 'sandbox', server: entry.server, message: `the sandbox ${refusalLine(entry)}` });
    }),
  );
  return owned;
}
