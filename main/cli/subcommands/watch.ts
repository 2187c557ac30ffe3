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
      } else if (payload.reason === 'state' && payload.summary?.state.kind === 'error') {
        ctx.out.error(`${server}: ${payload.summary.state.message}`);
      }
    });
    // The server's log messages (notifications/message), at the level set in the registry; "logger" is null when it names none.
    const logs = host.events.onEvent('servers.log', (entry) => {
      if (entry.server === server) print({ event: 'log', level: entry.level, logger: entry.logger ?? null, data: entry.data });
    });
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const timer = seconds !== undefined ? setTimeout(() => stop.abort(), seconds * 1000) : undefined;
    try {
      await host.calls.watchResources(server, stop.signal, resources);
      if (resources?.length && host.subscriptions.list(server).supported === false) ctx.out.info(`${server} does not offer resource subscriptions: no resourceUpdated will come.`);
      ctx.out.info(`watching ${server}${resources?.length ? ` (${resources.join(', ')})` : ''}${seconds ? ` for ${seconds} s` : ''} (Ctrl-C to stop)`);
      // Each `harbor` run is its own connection: a tool that starts something for "this session"
      // (server-everything's toggles) has to be called in the run that watches.
      if (tool) {
        const result = await host.calls.callTool(server, tool, args, { consent: { approveOnce: ctx.options.yes === true }, signal: stop.signal });
        ctx.out.info(`${tool}: ${renderToolResult(result).trim()}`);
      }
      await new Promise<void>((resolve) => {
        if (stop.signal.aborted) resolve();
        stop.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return EXIT.OK;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      await changes.dispose();
      await logs.dispose();
    }
  },
};
