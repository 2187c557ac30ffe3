/**
 * run_code as the model meets it: its definition (limits, the API or how to find it), its input
 * checked with a message that names the fix, and what comes back — the result and the printed
 * lines, or why the script failed and which of its calls already ran.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS, limitMessage, resolveCodeLimits } from '../../main/host/code-mode/limits';
import { runCodeDefinition, runCodeOutput, scriptOf } from '../../main/host/code-mode/run-code-tool';

describe('run_code', () => {
  it('carries the limits and the API, or how to find the API with tool search', () => {
    const withApi = runCodeDefinition({ limits: DEFAULT_CODE_LIMITS, declarations: 'declare const tools: {};' });
    expect(withApi.name).toBe('run_code');
    expect(withApi.description).toContain('Limits: 10 s running time, 64 MB, 100 calls, 100000 bytes output.');
    expect(withApi.description).toContain('```ts\ndeclare const tools: {};\n```');
    expect(withApi.inputSchema).toMatchObject({ required: ['code'], properties: { code: { type: 'string' } } });
    const searching = runCodeDefinition({ limits: DEFAULT_CODE_LIMITS, searchTool: 'search_tools' });
    expect(searching.description).toContain('Find tools with search_tools');
    expect(searching.description).not.toContain('```ts');
  });

  it('takes a non-empty "code" string, and says so otherwise', () => {
    expect(scriptOf({ code: 'return 1' })).toEqual({ code: 'return 1' });
    expect(scriptOf({})).toEqual({ problem: expect.stringContaining('run_code needs "code"') });
    expect(scriptOf({ code: '  ' })).toEqual({ problem: expect.stringContaining('empty') });
  });

  it('gives the model the result and the lines, or the failure with the calls that ran', () => {
    expect(runCodeOutput({ ok: true, result: { n: 1 }, logs: [{ level: 'log', text: 'hi' }, { level: 'warn', text: 'careful' }], calls: [], callCount: 0, ms: 5 })).toEqual({
      type: 'text',
      value: '{"result":{"n":1},"logs":["hi","warn: careful"]}',
    });
    expect(runCodeOutput({ ok: true, logs: [], calls: [], callCount: 0, ms: 5 })).toEqual({ type: 'text', value: '{"result":null}' });
    const failed = runCodeOutput({
      ok: false,
      error: { code: 'CONSENT_DENIED', message: 'no' },
      logs: [{ level: 'log', text: 'before' }],
      calls: [
        { id: 1, server: 'a', tool: 'x', arguments: {}, status: 'done', startedAt: 1 },
        { id: 2, server: 'b', tool: 'y', arguments: {}, status: 'error', startedAt: 2, error: { code: 'CONSENT_DENIED', message: 'no' } },
      ],
      callCount: 2,
      ms: 5,
    });
    expect(failed).toEqual({
      type: 'error-text',
      value: 'The script failed (CONSENT_DENIED): no\nTool calls it made (2): a.x ok, b.y CONSENT_DENIED. Calls that ran are not undone.\nIt printed:\nbefore',
    });
    const long = runCodeOutput({ ok: false, error: { code: 'TIME_LIMIT', message: 't' }, logs: [], calls: [{ id: 250, server: 'a', tool: 'x', arguments: {}, status: 'done', startedAt: 1 }], callCount: 250, ms: 5 });
    expect(long).toMatchObject({ value: expect.stringContaining('Tool calls it made (250, the last 1 of them): a.x ok.') as string });
  });
});

describe('code limits', () => {
  it('registry values replace the defaults and one run\'s flags replace both', () => {
    expect(resolveCodeLimits(undefined)).toEqual(DEFAULT_CODE_LIMITS);
    expect(resolveCodeLimits({ timeoutMs: 2_000, memoryMb: 8 })).toEqual({ ...DEFAULT_CODE_LIMITS, timeoutMs: 2_000, memoryBytes: 8 * 1024 * 1024 });
    expect(resolveCodeLimits({ toolCalls: 5 }, { maxToolCalls: 7 })).toMatchObject({ maxToolCalls: 7 });
  });

  it('each limit\'s message names it, its value and where to raise it', () => {
    expect(limitMessage('memory', DEFAULT_CODE_LIMITS)).toMatch(/64 MB.*"memoryMb".*--memory MB/);
    expect(limitMessage('toolCalls', DEFAULT_CODE_LIMITS)).toMatch(/more than 100 tool calls.*"toolCalls".*--max-calls N/);
    expect(limitMessage('output', DEFAULT_CODE_LIMITS)).toMatch(/100000 bytes.*"outputBytes".*--max-output BYTES/);
    expect(limitMessage('time', DEFAULT_CODE_LIMITS)).toMatch(/10000 ms.*"timeoutMs".*--timeout MS/);
  });
});
