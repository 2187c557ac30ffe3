/**
 * A long script keeps counts of its calls and a bounded window of their records, not a record of
 * every call with its arguments and result (harbor exec in a loop grew by 137 MB a minute).
 * Real worker thread, real QuickJS.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS } from '../../main/host/code-mode/limits';
import { CALL_WINDOW, type ToolBroker } from '../../main/host/code-mode/script-run';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';
import { codeSandboxForFile } from '../helpers/code-sandbox';

checkLeaksAtEndOfFile();

const sandbox = codeSandboxForFile();

/** Echoes its text back, as the echo tool of the fixture servers does. */
const echo: ToolBroker = { callTool: async (_server, _tool, args) => ({ content: [{ type: 'text', text: String(args.text) }] }) };

describe('script run records', () => {
  it('keeps counts of every call and a bounded window of the newest, each with bounded arguments', async () => {
    const calls = 600;
    const outcome = await sandbox().run({
      code: `const text = 'e'.repeat(20000); for (let i = 0; i < ${calls}; i++) await tools.fx.echo({ text }); return 'done';`,
      api: { fx: ['echo'] },
      limits: { ...DEFAULT_CODE_LIMITS, maxToolCalls: calls, timeoutMs: 60_000 },
      broker: echo,
    });
    expect(outcome).toMatchObject({ ok: true, result: 'done', callCount: calls });
    expect(outcome.calls.length).toBeLessThanOrEqual(CALL_WINDOW);
    expect(outcome.calls.at(-1)).toMatchObject({ id: calls, status: 'done' });
    const kept = JSON.stringify(outcome.calls).length;
    expect(kept).toBeLessThan(CALL_WINDOW * 4_000);
    expect(String((outcome.calls.at(-1)!.arguments as { text?: unknown }).text ?? outcome.calls.at(-1)!.arguments)).toMatch(/KB more/);
  });
});
