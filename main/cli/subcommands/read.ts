import type { CliCommand } from '../command';
import { ANSWER_OPTIONS, PAGE_WAIT_MS, withCliAnswers } from '../elicit';
import { parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderPrompt, renderResource } from '../render';
import { SAMPLING_OPTIONS } from '../sampling-notes';

export const readCommand: CliCommand = {
  name: 'read',
  summary: 'Read a resource',
  usage: 'read SERVER URI [--answer JSON] [--open] [--yes] [--allow-sampling]',
  options: { yes: { type: 'boolean' }, ...ANSWER_OPTIONS, ...SAMPLING_OPTIONS },
  positionals: { min: 2, max: 2 },
  async run(ctx) {
    const [server, uri] = ctx.args as [string, string];
    const host = await ctx.host();
    host.registry.requireValid();
    const result = await withCliAnswers(ctx, host, server, PAGE_WAIT_MS, (signal) => host.calls.readResource(server, uri, { signal }));
    ctx.out.result(result, renderResource(result));
    return EXIT.OK;
  },
};

export const promptCommand: CliCommand = {
  name: 'prompt',
  summary: 'Get a prompt, filled with arguments',
  usage: 'prompt SERVER NAME [--args JSON] [--answer JSON] [--open] [--yes] [--allow-sampling]',
  positionals: { min: 2, max: 2 },
  options: { args: { type: 'string' }, yes: { type: 'boolean' }, ...ANSWER_OPTIONS, ...SAMPLING_OPTIONS },
  async run(ctx) {
    const [server, name] = ctx.args as [string, string];
    const raw = parseJsonOption('args', ctx.options.args);
    const args = raw ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : undefined;
    const host = await ctx.host();
    host.registry.requireValid();
    const result = await withCliAnswers(ctx, host, server, PAGE_WAIT_MS, (signal) => host.calls.getPrompt(server, name, args, { signal }));
    ctx.out.result(result, renderPrompt(result));
    return EXIT.OK;
  },
};
