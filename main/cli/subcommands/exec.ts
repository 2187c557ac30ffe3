import { readFile } from 'node:fs/promises';
import { text as readText } from 'node:stream/consumers';
import type { CodeCall, CodeRunError } from '../../../preload/contract';
import type { CodeLimits } from '../../host/code-mode/limits';
import type { CodeRunEvent } from '../../host/code-mode/script-run';
import type { UnavailableServer } from '../../host/services/code-service';
import { HarborError } from '../../host/errors';
import { resolveToolset } from '../../host/tools/toolsets';
import type { CliCommandCode, CliContext } from '../command';
import { PAGE_WAIT_MS, withCliAnswers } from '../elicit';
import { parseIntOption } from '../json-option';
import { EXIT, UsageError, exitCodeFor } from '../output';
import { EXIT_INTERRUPTED } from './chat';

const MAX_SCRIPT_BYTES = 1024 * 1024;

/**
 * `harbor exec [FILE | -]`: runs a JavaScript program against the enabled servers, in the same
 * sandbox, with the same tools API and the same per-call consent as the chat's run_code. The
 * program's console output goes to stdout as it prints, each tool call to stderr; its return
 * value is printed last. --json prints one object: {result, logs, calls} or {error, logs, calls}.
 */
export const execCommand: CliCommandCode = {
  async run(ctx) {
    const overrides = limitFlags(ctx);
    const code = ctx.options.types === true ? '' : await readScript(ctx);
    // --start-all: every server starts up front, as without a catalog cache (none is offered from it).
    const host = await ctx.host({ catalogCache: true, ...(ctx.options['start-all'] === true ? { startAll: true } : {}) });
    host.registry.requireValid();
    // --toolset: the script's API holds only the toolset's tools (an unknown name is exit 2, naming the known ones).
    const settings = host.settings.chat();
    const toolset = typeof ctx.options.toolset === 'string' ? resolveToolset(settings.toolsets, ctx.options.toolset) : undefined;
    const tellUnavailable = (unavailable: readonly UnavailableServer[]) => {
      for (const { server, error } of unavailable) ctx.out.info(`${server} is not available to the script (${error.code}): ${error.message}`);
    };
    if (ctx.options.types === true) {
      const { declarations, unavailable } = await host.code.declarations(toolset ? { toolset } : {});
      tellUnavailable(unavailable);
      ctx.out.result({ declarations }, declarations);
      return EXIT.OK;
    }

    // The Host's code sandbox; each call goes through the Host's call door: the consent gate
    // decides it on its own (--yes approves the calls of this run), and the script sees results
    // only after the Host's redaction exit, so no secret a server echoes reaches it.
    // A server's question during a call is answered as for `harbor call` (--answer, --open).
    // The trace (two lines per call) and the script's lines leave coalesced, in order, within
    // 25 ms: a write per line cost more than a fast loop's call (#32 goal 4).
    const endCoalescing = ctx.out.coalesce();
    let outcome;
    try {
      outcome = await withCliAnswers(ctx, host, undefined, PAGE_WAIT_MS, (signal) =>
        host.code.run({ code, ...(toolset ? { toolset } : {}), limits: overrides, approveCalls: ctx.options.yes === true, signal, onEvent: (event) => printEvent(ctx, event), onUnavailable: tellUnavailable }),
      );
    } finally {
      endCoalescing();
    }
    const calls = outcome.calls.map(callSummary);
    const logs = outcome.logs.map((l) => l.text);
    // The run keeps the newest calls only: how many there were in all, when some are not listed.
    const callCount = outcome.callCount > calls.length ? { callCount: outcome.callCount } : {};
    if (outcome.ok) {
      ctx.out.result({ result: outcome.result ?? null, logs, calls, ...callCount }, humanResult(outcome.result));
      return EXIT.OK;
    }
    const error = outcome.error ?? { code: 'INTERNAL', message: 'The script ended without a result.' };
    ctx.out.result({ error, logs, calls, ...callCount });
    ctx.out.error(error.message);
    return exitCodeOf(error, ctx.signal.aborted);
  },
};

function limitFlags(ctx: CliContext): Partial<CodeLimits> {
  const timeoutMs = parseIntOption('timeout', ctx.options.timeout, { min: 1 });
  const memoryMb = parseIntOption('memory', ctx.options.memory, { min: 4, max: 4096 });
  const maxToolCalls = parseIntOption('max-calls', ctx.options['max-calls'], { min: 0 });
  const maxOutputBytes = parseIntOption('max-output', ctx.options['max-output'], { min: 1 });
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(memoryMb !== undefined ? { memoryBytes: memoryMb * 1024 * 1024 } : {}),
    ...(maxToolCalls !== undefined ? { maxToolCalls } : {}),
    ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
  };
}

async function readScript(ctx: CliContext): Promise<string> {
  const source = ctx.args[0] ?? '-';
  let code: string;
  if (source === '-') {
    if (process.stdin.isTTY) throw new UsageError('exec needs a script: give a FILE, or pipe it in with "-" (e.g. harbor exec - < script.js).');
    const aborted = new Promise<never>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new UsageError('interrupted while reading the script from stdin.')), { once: true }));
    code = await Promise.race([readText(process.stdin), aborted]);
  } else {
    try {
      code = await readFile(source, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the script "${source}": ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
    }
  }
  if (Buffer.byteLength(code) > MAX_SCRIPT_BYTES) throw new UsageError(`the script is larger than ${MAX_SCRIPT_BYTES / 1024} KiB.`);
  if (!code.trim()) throw new UsageError(`the script${source === '-' ? ' on stdin' : ` "${source}"`} is empty. Example: echo 'return await tools.notes.list({})' | harbor exec -`);
  return code;
}

/** Human mode: the script's lines on stdout (errors and warnings on stderr), its calls on stderr. */
function printEvent(ctx: CliContext, event: CodeRunEvent): void {
  if (ctx.globals.json) return;
  if (event.type === 'log') {
    if (event.log.level === 'error' || event.log.level === 'warn') ctx.out.info(event.log.text);
    else ctx.out.text(event.log.text);
    return;
  }
  const { call } = event;
  const name = `${call.server} › ${call.tool}`;
  if (call.status === 'running') ctx.out.info(`→ ${name} ${JSON.stringify(call.arguments)}`);
  else if (call.status === 'done') ctx.out.info(`← ${name} ok (${(call.endedAt ?? call.startedAt) - call.startedAt} ms)`);
  else if (call.status === 'error') ctx.out.info(`✗ ${name} ${call.error?.code ?? ''}: ${call.error?.message ?? ''}`);
}

function callSummary(call: CodeCall): { server: string; tool: string; ms: number; ok: boolean } {
  return { server: call.server, tool: call.tool, ms: (call.endedAt ?? call.startedAt) - call.startedAt, ok: call.status === 'done' };
}

function humanResult(result: unknown): string | undefined {
  if (result === undefined) return undefined;
  return typeof result === 'string' ? result : JSON.stringify(result, null, 2);
}

/**
 * 1 when the script threw or reached a limit; 4 when consent was needed (or refused by a
 * setting); 3 when a server or the sandbox failed; 130 when interrupted.
 */
function exitCodeOf(error: CodeRunError, interrupted: boolean): number {
  if (interrupted && error.code === 'CANCELLED') return EXIT_INTERRUPTED;
  switch (error.code) {
    case 'SCRIPT_ERROR':
    case 'TOOL_ERROR':
    case 'TIME_LIMIT':
    case 'MEMORY_LIMIT':
    case 'CALL_LIMIT':
    case 'OUTPUT_LIMIT':
      return EXIT.TOOL_ERROR;
    default: {
      const code = exitCodeFor(new HarborError(error.code, error.message));
      // A tool call's bad request is the script's mistake, not a wrong command line.
      return code === EXIT.USAGE ? EXIT.TOOL_ERROR : code;
    }
  }
}
