import type { CliCommandCode } from '../command';
import { parseIntOption, parseJsonOption } from '../json-option';
import { EXIT } from '../output';
import { renderToolResult } from '../render';
import { PAGE_WAIT_MS, withCliAnswers } from '../elicit';
import type { TaskView } from '../../../preload/contract';
import type { CliOutput } from '../output';
import type { Host } from '../../host/host';
import { refusalLine } from '../../host/sandbox/refusal-line';

/** One stderr line per change of a task's status or message. */
function taskStatusPrinter(out: CliOutput): (task: TaskView) => void {
  let last = '';
  return (task) => {
    const line = `task ${task.taskId}: ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}`;
    if (line !== last) out.info(line);
    last = line;
  };
}

/** The hard ceiling of one call, progress or not (the per-request timeout resets on progress). */
export const DEFAULT_MAX_CALL_MS = 10 * 60_000;

export const callCommand: CliCommandCode = {
  async run(ctx) {
    const [server, tool] = ctx.args as [string, string];
    const args = parseJsonOption('args', ctx.options.args);
    const timeoutMs = parseIntOption('timeout', ctx.options.timeout, { min: 1 });
    // The tool's definition (validation, consent), not the resources or prompts.
    const host = await ctx.host({ catalog: ['tools'] });
    host.registry.requireValid();
    const started = Date.now();
    try {
      return await callAndPrint();
    } finally {
      await sayRefusals(ctx.out, host, server, started);
    }

    async function callAndPrint(): Promise<number> {
      const result = await withCliAnswers(ctx, host, server, timeoutMs ?? PAGE_WAIT_MS, (signal) =>
        host.calls.callTool(server, tool, args, {
          // The consent policy decides; --yes approves this one call and the launch it needs.
          consent: { approveOnce: ctx.options.yes === true },
          signal,
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          maxTotalMs: Math.max(DEFAULT_MAX_CALL_MS, timeoutMs ?? 0),
          onProgress: (p) => ctx.out.info(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
          // The server may run the call as a task: waited for like any call, its status on stderr;
          // --timeout bounds the whole wait (then tasks/cancel, exit 3), Ctrl-C cancels it too.
          task: { ...(timeoutMs !== undefined ? { deadlineMs: timeoutMs } : {}), onUpdate: taskStatusPrinter(ctx.out) },
        }),
      );
      ctx.out.result(
        { content: result.content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true },
        renderToolResult(result),
      );
      return result.isError ? EXIT.TOOL_ERROR : EXIT.OK;
    }
  },
};

/**
 * What the sandbox refused the server during the call, on stderr with the registry rule that would
 * allow it: a refused write or connection is why a tool failed, and the person should not have to
 * dig it out of the server's log. One turn of the event loop first: a refusal the server wrote to
 * stderr before its answer is read in the same turn as the answer, and recorded by then.
 */
async function sayRefusals(out: CliOutput, host: Host, server: string, since: number): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  for (const refusal of host.sandbox.refusals(server)) if (refusal.at >= since) out.info(`${server}: the sandbox ${refusalLine(refusal)}`);
}
