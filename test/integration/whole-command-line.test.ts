/**
 * #31.4: a whole command line pasted into "command" (`node /path/server.mjs --flag`) is one program
 * name to the spawn. Harbor never says a program that exists was not found: when the first word of
 * a space-holding command is itself a program, the start and the doctor say it looks like a whole
 * command line, and how to split it. The add-server form's pasted snippet imports through the same
 * parser as a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, FEATURE_SERVER, NODE, type TestHost } from '../helpers/host';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

describe('a whole command line in "command"', () => {
  it('starting it: the error says it looks like a whole command line and names the split, never that node was not found', async () => {
    t = await createTestHost({ pasted: { command: `node ${FEATURE_SERVER} --name pasted` } });
    await t.host.servers.startAll();
    const state = t.host.servers.get('pasted').state;
    expect(state.kind).toBe('error');
    if (state.kind !== 'error') return;
    expect(state.code).toBe('SPAWN_FAILED');
    expect(state.message).toContain('this looks like a whole command line');
    expect(state.message).toContain(`program "node", arguments "${FEATURE_SERVER}" "--name" "pasted"`);
    expect(state.message).not.toMatch(/could not find "node/);
  });

  it('a command whose first word is no program: the usual "not found" (nothing else is guessed)', async () => {
    t = await createTestHost({ missing: { command: 'harbor-no-such-program-xyz --serve' } });
    await t.host.servers.startAll();
    const state = t.host.servers.get('missing').state;
    expect(state.kind === 'error' && state.message).toMatch(/could not find "harbor-no-such-program-xyz --serve"/);
    expect(state.kind === 'error' && state.message).not.toContain('whole command line');
  });

  it('the doctor, on an unsaved entry: the command step says the same and the fix', async () => {
    t = await createTestHost({});
    const report = await t.host.doctor.diagnose('new', { command: `${NODE} ${FEATURE_SERVER}` });
    const command = report.checks.find((c) => c.id === 'command');
    expect(command).toMatchObject({ status: 'fail', message: expect.stringContaining('this looks like a whole command line') });
    expect(command?.fix).toContain(`Put "${NODE}" in "command"`);
  });
});

describe('a pasted mcpServers snippet, imported as a file is', () => {
  it('previews and adds every server of the text, through the import code (VS Code shape too)', async () => {
    t = await createTestHost({});
    const text = JSON.stringify({ servers: { one: { type: 'stdio', command: NODE, args: [FEATURE_SERVER] }, two: { command: NODE, args: [FEATURE_SERVER, '--name', 'two'] } } });
    const preview = await t.host.imports.preview({ text }, true);
    expect(preview).toMatchObject({ format: 'vscode', dryRun: true, written: false, added: ['one', 'two'] });
    const done = await t.host.imports.apply({ text }, true);
    expect(done).toMatchObject({ written: true, added: ['one', 'two'] });
    expect(Object.keys(JSON.parse(readFileSync(join(t.dir, 'harbor.json'), 'utf8')).mcpServers)).toEqual(['one', 'two']);
  });
});
