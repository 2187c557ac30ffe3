/**
 * Security, issue #27 finding 7: how a code-mode script ended is reported by code the script
 * cannot change. A script that rewrites Object.prototype.toJSON (or Array's, or a getter on
 * Object.prototype) must not turn its failure into success, fake a limit, or claim a result it
 * did not return. Real worker threads, real QuickJS.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS } from '../../main/host/code-mode/limits';
import type { CodeRunOutcome, ToolBroker } from '../../main/host/code-mode/script-run';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';
import { codeSandboxForFile } from '../helpers/code-sandbox';

checkLeaksAtEndOfFile();

const sandbox = codeSandboxForFile();

const failing: ToolBroker = {
  callTool: async () => ({ content: [{ type: 'text', text: 'the tool failed' }], isError: true }),
};

function run(code: string): Promise<CodeRunOutcome> {
  return sandbox().run({ code, api: { files: ['remove'] }, limits: DEFAULT_CODE_LIMITS, broker: failing });
}

/** Replaces the report of how the script ended (an object with `ok`) with `spoof`; other objects serialize as themselves. */
const hijack = (spoof: string) => `
  Object.defineProperty(Object.prototype, 'toJSON', {
    configurable: true,
    value: function () { return Object.prototype.hasOwnProperty.call(this, 'ok') ? ${spoof} : this; },
  });`;

describe("a code-mode script cannot rewrite the report of how it ended", () => {
  it('a script that throws is reported as having thrown, not as the success its toJSON claims', async () => {
    const outcome = await run(`${hijack(`{ ok: true, json: '"all went well"' }`)}
      throw new Error('the script failed');`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'SCRIPT_ERROR' } });
    expect(outcome.error?.message).toContain('the script failed');
    expect(outcome.result).toBeUndefined();
  });

  it('a script that returns is reported with its own value, not a memory limit it never hit', async () => {
    const outcome = await run(`${hijack(`{ ok: false, name: 'InternalError', message: 'out of memory' }`)}
      return { done: 3 };`);
    expect(outcome).toMatchObject({ ok: true, result: { done: 3 } });
  });

  it("a script that caught a tool's failure cannot blame the run on that call while returning normally", async () => {
    const outcome = await run(`
      let token;
      try { await tools.files.remove({ path: '/' }); } catch (error) { token = Object.getOwnPropertyDescriptor(error, 'harborCallToken').value; }
      ${hijack(`{ ok: false, name: 'ToolError', message: 'files.remove failed', token }`)}
      return 'finished';`);
    expect(outcome).toMatchObject({ ok: true, result: 'finished' });
  });

  it('a getter for `json` or `ok` on Object.prototype changes nothing of the report', async () => {
    const outcome = await run(`
      Object.defineProperty(Object.prototype, 'json', { configurable: true, get() { return '"from the getter"'; } });
      Object.defineProperty(Object.prototype, 'ok', { configurable: true, get() { return true; } });
      throw new Error('thrown');`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'SCRIPT_ERROR' } });
  });
});
