import type { ConnectionState } from '../../../preload/contract';
import { toErrorData } from '../../host/errors';
import type { CliCommandCode } from '../command';
import { parseIntOption, parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderToolResult } from '../render';

/** The request each list is fetched with, as `{"event":"error","what":…}` names it. */
const REQUEST_FOR = {
  tools: 'tools/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
} as const;

const EVENT_FOR = {
  tools: 'toolsChanged',
  prompts: 'promptsChanged',
  resources: 'resourcesChanged',
  resourceTemplates: 'resourcesChanged',
} as const;

export const watchCommand: CliCommandCode = {
  async run(ctx) {
    const [server] = ctx.args as [string];
    const seconds = parseIntOption('seconds', ctx.options.seconds, { min: 1 });
    const resources = ctx.options.resource as string[] | undefined;
    const tool = typeof ctx.options.call === 'string' ? ctx.options.call : undefined;
    const args = parseJsonOption('args', ctx.options.args);
    const host = await ctx.host();
    host.registry.requireValid();
    await host.servers.connect(server);
    const print = (line: Record<string, unknown>) => ctx.out.result(line, JSON.stringify(line));
    /** The failure last printed (lists and message): a retry that fails the same way prints nothing new. */
    let staleSeen: string | undefined;
    const changes = host.events.onEvent('servers.changed', (payload) => {
      if (payload.name !== server) return;
      if (payload.reason === 'catalog') {
        for (const e of new Set((payload.changed ?? []).map((k) => EVENT_FOR[k]))) print({ event: e });
      } else if (payload.reason === 'stale') {
        // A list the server said changed could not be fetched again: the last good one stays, marked.
        const stale = payload.summary?.stale;
        const key = stale ? `${stale.lists.join(',')}\n${stale.message}` : undefined;
        if (stale && key !== staleSeen) {
          staleSeen = key;
          for (const kind of stale.lists) print({ event: 'error', what: REQUEST_FOR[kind], message: stale.message, since: new Date(stale.since).toISOString() });
        } else if (!stale && staleSeen !== undefined) {
          staleSeen = undefined;
          print({ event: 'recovered' });
        }
      } else if (payload.reason === 'resourceUpdated') {
        print({ event: 'resourceUpdated', uri: payload.uri });
      } else if (payload.reason === 'state' && payload.summary) {
        noticeState(payload.summary.state);
      }
    });
    // The server's log messages (notifications/message), at the level set in the registry; "logger" is null when it names none.
    const logs = host.events.onEvent('servers.log', (entry) => {
      if (entry.server === server) print({ event: 'log', level: entry.level, logger: entry.logger ?? null, data: entry.data });
    });
    const stop = new AbortController();
    /** Set when the connection is lost for good: the command ends with exit 3. */
    let lostForGood = false;
    /** The server went away and Harbor is bringing it back. */
    let away = false;
    const stderrTail = () => host.servers.stderrTail(server).trim();
    const runCall = async (): Promise<void> => {
      if (!tool) return;
      const result = await host.calls.callTool(server, tool, args, { consent: { approveOnce: ctx.options.yes === true }, signal: stop.signal });
      ctx.out.info(`${tool}: ${renderToolResult(result).trim()}`);
    };
    // A crash, a restart or a lost connection is printed, never passed over (issue 28).
    const noticeState = (state: ConnectionState): void => {
      if (state.kind === 'restarting') {
        const reconnecting = { attempt: state.attempt, maxAttempts: state.maxAttempts, nextAt: new Date(state.nextAt).toISOString() };
        if (!away) print({ event: 'disconnected', ...(state.message ? { message: state.message } : {}), reconnecting, stderrTail: state.stderrTail?.trim() || stderrTail() });
        else print({ event: 'reconnecting', ...reconnecting });
        away = true;
      } else if (state.kind === 'ready' && away) {
        away = false;
        // Each run is its own session: what --call started there is gone with it, so it runs again.
        print({ event: 'restarted', stderrTail: stderrTail(), ...(tool ? { call: { tool, runAgain: true } } : {}) });
        void runCall().catch((error: unknown) => {
          const data = toErrorData(error);
          print({ event: 'error', what: 'tools/call', tool, code: data.code, message: data.message });
        });
      } else if (state.kind === 'error') {
        print({ event: 'disconnected', final: true, code: state.code, message: state.message, stderrTail: state.stderrTail.trim() || stderrTail() });
        ctx.out.error(`${server}: ${state.message}`);
        lostForGood = true;
        stop.abort();
      }
    };
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const timer = seconds !== undefined ? setTimeout(() => stop.abort(), seconds * 1000) : undefined;
    try {
      // A subscription the server refused is said, not passed over: nothing will come for it.
      for (const refused of await host.calls.watchResources(server, stop.signal, resources)) print({ event: 'error', what: 'resources/subscribe', uri: refused.uri, message: refused.message });
      if (resources?.length && host.subscriptions.list(server).supported === false) ctx.out.info(`${server} does not offer resource subscriptions: no resourceUpdated will come.`);
      ctx.out.info(`watching ${server}${resources?.length ? ` (${resources.join(', ')})` : ''}${seconds ? ` for ${seconds} s` : ''} (Ctrl-C to stop)`);
      // Each `harbor` run is its own connection: a tool that starts something for "this session"
      // (server-everything's toggles) has to be called in the run that watches.
      await runCall();
      // Holds the process open while only unref'd timers (a scheduled restart) remain: without it
      // Node would end the command silently with exit 0 while the server is away.
      const keepAlive = setInterval(() => undefined, 60_000);
      await new Promise<void>((resolve) => {
        if (stop.signal.aborted) resolve();
        stop.signal.addEventListener('abort', () => resolve(), { once: true });
      }).finally(() => clearInterval(keepAlive));
      return lostForGood ? EXIT.CONNECTION : EXIT.OK;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      await changes.dispose();
      await logs.dispose();
    }
  },
};
