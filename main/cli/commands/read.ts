import type { CliCommand } from '../command';
import { parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderPrompt, renderResource } from '../render';

export const readCommand: CliCommand = {
  name: 'read',
  summary: 'Read a resource',
  usage: 'read SERVER URI [--yes]',
  options: { yes: { type: 'boolean' } },
  positionals: { min: 2, max: 2 },
  async run(ctx) {
    const [server, uri] = ctx.args as [string, string];
    const host = await ctx.host();
    host.registry.requireValid();
    const result = await host.calls.readResource(server, uri, { signal: ctx.signal });
    ctx.out.result(result, renderResource(result));
    return EXIT.OK;
  },
};

export const promptCommand: CliCommand = {
  name: 'prompt',
  summary: 'Get a prompt, filled with arguments',
  usage: 'prompt SERVER NAME [--args JSON] [--yes]',
  positionals: { min: 2, max: 2 },
  options: { args: { type: 'string' }, yes: { type: 'boolean' } },
  async run(ctx) {
    const [server, name] = ctx.args as [string, string];
    const raw = parseJsonOption('args', ctx.options.args);
    const args = raw ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : undefined;
    const host = await ctx.host();
    host.registry.requireValid();
    const result = await host.calls.getPrompt(server, name, args, { signal: ctx.signal });
    ctx.out.result(result, renderPrompt(result));
    return EXIT.OK;
  },
};
