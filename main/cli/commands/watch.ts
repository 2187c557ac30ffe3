import type { CliCommand } from '../command';
import { parseIntOption } from '../json-option';
import { EXIT } from '../output';

const EVENT_FOR = {
  tools: 'toolsChanged',
  prompts: 'promptsChanged',
  resources: 'resourcesChanged',
  resourceTemplates: 'resourcesChanged',
} as const;

export const watchCommand: CliCommand = {
  name: 'watch',
  summary: 'Hold the subscription and print each change as a JSON line',
  usage: 'watch SERVER [--seconds N] [--yes]',
  positionals: { min: 1, max: 1 },
  options: { seconds: { type: 'string' }, yes: { type: 'boolean' } },
  async run(ctx) {
    const [server] = ctx.args as [string];
    const seconds = parseIntOption('seconds', ctx.options.seconds, { min: 1 });
    const host = await ctx.host();
    host.registry.requireValid();
    await host.servers.connect(server);
    const print = (line: Record<string, unknown>) => ctx.out.result(line, JSON.stringify(line));
    const subscription = host.events.onEvent('servers.changed', (payload) => {
      if (payload.name !== server) return;
      if (payload.reason === 'catalog') {
        for (const e of new Set((payload.changed ?? []).map((k) => EVENT_FOR[k]))) print({ event: e });
      } else if (payload.reason === 'resourceUpdated') {
        print({ event: 'resourceUpdated', uri: payload.uri });
      } else if (payload.reason === 'state' && payload.summary?.state.kind === 'error') {
        ctx.out.error(`${server}: ${payload.summary.state.message}`);
      }
    });
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const timer = seconds !== undefined ? setTimeout(() => stop.abort(), seconds * 1000) : undefined;
    try {
      await host.calls.watchResources(server, stop.signal);
      ctx.out.info(`watching ${server}${seconds ? ` for ${seconds} s` : ''} (Ctrl-C to stop)`);
      await new Promise<void>((resolve) => {
        if (stop.signal.aborted) resolve();
        stop.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return EXIT.OK;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      await subscription.dispose();
    }
  },
};
