/**
 * What a run tells of its calls as it goes, in order: each call's start before its request goes
 * to the broker (the chat's consent watch finds the call by it), before its end and before
 * anything the script prints after starting it (real worker thread, real QuickJS); and a call's
 * answer goes to the script before its record is finished and told (#32 goal 4: the trace and
 * the bookkeeping are not on the call's path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS } from '../../main/host/code-mode/limits';
import { CodeSandbox } from '../../main/host/code-mode/sandbox';
import type { ToWorker } from '../../main/host/code-mode/protocol';
import { ScriptRun, type CodeRunEvent, type ToolBroker } from '../../main/host/code-mode/script-run';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';

checkLeaksAtEndOfFile();

let sandbox: CodeSandbox;
beforeAll(() => {
  sandbox = new CodeSandbox();
});
afterAll(async () => {
  await sandbox.dispose();
});

/** Runs `code` against an echo broker; returns what happened, in order, as short lines. */
async function timeline(code: string, fail: (text: string) => boolean = () => false): Promise<string[]> {
  const lines: string[] = [];
  const broker: ToolBroker = {
    callTool: async (_server, _tool, args) => {
      lines.push(`asked ${String(args.text)}`);
      const text = String(args.text);
      return fail(text) ? { content: [{ type: 'text', text: 'no' }], isError: true } : { content: [{ type: 'text', text }] };
    },
  };
  const onEvent = (event: CodeRunEvent) => {
    if (event.type === 'log') lines.push(`log ${event.log.text}`);
    else lines.push(`${event.call.status} ${String((event.call.arguments as { text?: unknown }).text)}`);
  };
  const outcome = await sandbox.run({ code, api: { fx: ['echo'] }, limits: { ...DEFAULT_CODE_LIMITS, timeoutMs: 30_000 }, broker, onEvent });
  lines.push(outcome.ok ? 'ok' : `failed ${outcome.error?.code}`);
  return lines;
}

describe('a run tells its calls in order', () => {
  it('each start before the request leaves, before its end and before what the script prints next', async () => {
    const lines = await timeline(`for (let i = 0; i < 3; i++) { const got = await tools.fx.echo({ text: 'c' + i }); console.log('got ' + got); }`);
    expect(lines).toEqual(['running c0', 'asked c0', 'done c0', 'log got c0', 'running c1', 'asked c1', 'done c1', 'log got c1', 'running c2', 'asked c2', 'done c2', 'log got c2', 'ok']);
  });

  it('calls started together are each told started before told ended', async () => {
    const lines = await timeline(`await Promise.all([tools.fx.echo({ text: 'a' }), tools.fx.echo({ text: 'b' })]);`);
    for (const text of ['a', 'b']) {
      expect(lines.indexOf(`running ${text}`)).toBeGreaterThanOrEqual(0);
      expect(lines.indexOf(`running ${text}`)).toBeLessThan(lines.indexOf(`asked ${text}`));
      expect(lines.indexOf(`asked ${text}`)).toBeLessThan(lines.indexOf(`done ${text}`));
    }
    expect(lines.at(-1)).toBe('ok');
  });

  it('a failed call and a call the script left running are told started first', async () => {
    const failed = await timeline(`try { await tools.fx.echo({ text: 'bad' }); } catch { console.log('caught'); }`, (text) => text === 'bad');
    expect(failed).toEqual(['running bad', 'asked bad', 'error bad', 'log caught', 'ok']);
    // Not awaited: the script returns while its call is on its way; the run's end tells both.
    const left = await timeline(`tools.fx.echo({ text: 'late' }); return 1;`);
    expect(left.indexOf('running late')).toBeGreaterThanOrEqual(0);
    expect(left.indexOf('running late')).toBeLessThan(left.indexOf('ok'));
  });
});

describe('a call answered', () => {
  it('goes back to the script before its record is finished and told', async () => {
    const order: string[] = [];
    // The run's worker side, recorded: what the host sends the worker, in order with what it tells.
    let answered!: () => void;
    const answer = new Promise<void>((resolve) => (answered = resolve));
    const channel = {
      send: (message: ToWorker) => {
        order.push(message.type);
        if (message.type === 'answer') answered();
      },
      terminate: () => undefined,
    };
    const broker: ToolBroker = { callTool: async (_server, _tool, args) => ({ content: [{ type: 'text', text: String(args.text) }] }) };
    const run = new ScriptRun(channel, { code: '', api: { fx: ['echo'] }, limits: { ...DEFAULT_CODE_LIMITS, timeoutMs: 30_000 }, broker, onEvent: (event) => event.type === 'call' && order.push(event.call.status) });
    run.start();
    run.receive({ type: 'call', runId: run.runId, callId: 1, server: 'fx', tool: 'echo', argsJson: '{"text":"x"}' });
    await answer;
    run.receive({ type: 'done', runId: run.runId, outcome: { ok: true }, recycle: false });
    await run.done;
    expect(order).toEqual(['run', 'running', 'answer', 'done']);
  });
});
