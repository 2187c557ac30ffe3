import type { CliCommandCode } from '../command';
import { PAGE_WAIT_MS, withCliAnswers } from '../elicit';
import { parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderPrompt, renderResource } from '../render';

export const readCommand: CliCommandCode = {
  async run(ctx) {
    const [server, uri] = ctx.args as [string, string];
    const host = await ctx.host();
    host.registry.requireValid();
    const result = await withCliAnswers(ctx, host, server, PAGE_WAIT_MS, (signal) => host.calls.readResource(server, uri, { signal }));
    ctx.out.result(result, renderResource(result));
    return EXIT.OK;
  },
};

export const promptCommand: CliCommandCode = {
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
