import type { CliCommand } from '../command';
import { parseIntOption, parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderToolResult } from '../render';
import { answerElicitationsFrom } from '../elicit';

/** The hard ceiling of one call, progress or not (the per-request timeout resets on progress). */
export const DEFAULT_MAX_CALL_MS = 10 * 60_000;

export const callCommand: CliCommand = {
  name: 'call',
  summary: 'Call a tool and print its result',
  usage: 'call SERVER TOOL [--args JSON] [--answer JSON] [--yes] [--timeout MS]',
  positionals: { min: 2, max: 2 },
  options: {
    args: { type: 'string' },
    answer: { type: 'string' },
    yes: { type: 'boolean' },
    timeout: { type: 'string' },
  },
  async run(ctx) {
    const [server, tool] = ctx.args as [string, string];
    const args = parseJsonOption('args', ctx.options.args);
    const answer = parseJsonOption('answer', ctx.options.answer);
    const timeoutMs = parseIntOption('timeout', ctx.options.timeout, { min: 1 });
    const host = await ctx.host();
    host.registry.requireValid();
    const responder = host.elicitation.respondWith(answerElicitationsFrom(answer, ctx.out));
    try {
      const result = await host.calls.callTool(server, tool, args, {
        // The consent policy decides; --yes approves this one call and the launch it needs.
        consent: { approveOnce: ctx.options.yes === true },
        signal: ctx.signal,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        maxTotalMs: Math.max(DEFAULT_MAX_CALL_MS, timeoutMs ?? 0),
        onProgress: (p) => ctx.out.info(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
      });
      ctx.out.result(
        { content: result.content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true },
        renderToolResult(result),
      );
      return result.isError ? EXIT.TOOL_ERROR : EXIT.OK;
    } finally {
      await responder.dispose();
    }
  },
};
