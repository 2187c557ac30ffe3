/**
 * What a run tells of its calls as it goes, in order: each call's start before its request goes
 * to the broker (the chat's consent watch finds the call a consent.request is about among the
 * calls told started: told later, as tried for #32 goal 4, its card never showed
 * 'awaiting-consent'), before its end and before anything the script prints after starting it.
 * Real worker thread, real QuickJS.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS } from '../../main/host/code-mode/limits';
import type { CodeRunEvent, ToolBroker } from '../../main/host/code-mode/script-run';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';
import { codeSandboxForFile } from '../helpers/code-sandbox';

checkLeaksAtEndOfFile();

const sandbox = codeSandboxForFile();

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
  const outcome = await sandbox().run({ code, api: { fx: ['echo'] }, limits: { ...DEFAULT_CODE_LIMITS, timeoutMs: 30_000 }, broker, onEvent });
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
