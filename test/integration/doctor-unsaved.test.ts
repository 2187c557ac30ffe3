/**
 * The doctor's door for an entry not saved yet (`servers.diagnose` with `config`): the add-server
 * form's Test connection (#31). It checks the entry, the command or address, and launches nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, FEATURE_SERVER, NODE, type TestHost } from '../helpers/host';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

describe('diagnosing an unsaved entry', () => {
  it('a pasted command line saved as one program name: said to be a whole command line; nothing is added or started', async () => {
    t = await createTestHost({});
    const report = await t.host.doctor.diagnose('new', { command: `${NODE} ${FEATURE_SERVER}` });
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.id === 'command')).toMatchObject({ status: 'fail', message: expect.stringContaining('this looks like a whole command line') });
    expect(report.checks.find((c) => c.id === 'handshake')).toMatchObject({ status: 'skip' });
    expect(t.host.servers.names()).toEqual([]);
  });

  it('a good entry: its command resolves, the runtime answers, consent and handshake wait for the save', async () => {
    t = await createTestHost({});
    const report = await t.host.doctor.diagnose('new', { command: 'node', args: [FEATURE_SERVER] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['registry', 'ok'],
      ['command', 'ok'],
      ['runtime', 'ok'],
      ['cwd', 'skip'],
      ['consent', 'skip'],
      ['handshake', 'skip'],
      ['sandbox', 'ok'],
    ]);
    expect(report.ok).toBe(true);
  });

  it('an entry that is not valid: the registry step names the problem', async () => {
    t = await createTestHost({});
    const report = await t.host.doctor.diagnose('new', { command: 42 });
    expect(report).toMatchObject({ ok: false, checks: [{ id: 'registry', status: 'fail', code: 'CONFIG_INVALID' }] });
  });
});
