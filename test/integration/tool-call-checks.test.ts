/**
 * What a tool call's checks remember between calls is only ever a shortcut (real Host, real stdio
 * fixture server, real SQLite): when the server changes a tool's input schema, the next call is
 * checked against the new schema, and the approval of the old definition no longer covers it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURE_SERVER, FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';
import { errorOf } from '../helpers/harbor-error';
import { waitFor } from '../helpers/wait-for';
import { join } from 'node:path';

const SHIFTING_SERVER = join(FIXTURES, 'modern/shifting-schema.mjs');

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('a tool whose input schema changes while connected', () => {
  it('is checked against its schema of now, and its old approval asks again', async () => {
    current = await createTestHost({ shift: { command: NODE, args: [SHIFTING_SERVER] } });
    const host = current.host;
    await host.consent.grantTool('shift', 'count_to', true);
    // Checked (and compiled) against "n ≤ 10" first.
    expect((await host.calls.callTool('shift', 'count_to', { n: 5 })).content).toEqual([{ type: 'text', text: '1 2 3 4 5' }]);

    await current.call('shift', 'tighten');
    await waitFor(async () => {
      const tool = (await host.calls.catalog('shift')).tools.find((t) => t.name === 'count_to');
      return JSON.stringify(tool?.inputSchema).includes('"maximum":3');
    }, 'the tightened schema in the catalog');

    // The new schema refuses what the old one let through, before consent and before the server.
    const refused = await errorOf(host.calls.callTool('shift', 'count_to', { n: 5 }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(/"n"/);
    // What the new schema allows is still a changed definition: the rug pull is caught.
    const stale = await errorOf(host.calls.callTool('shift', 'count_to', { n: 2 }));
    expect(stale.code).toBe('CONSENT_STALE');
    expect(stale.changed).toEqual(['inputSchema']);
  });
});

describe('a server whose launch is edited under the same name', () => {
  it('is another server to consent: the approval given to the old command does not cover it', async () => {
    const feature = { command: NODE, args: [FEATURE_SERVER] };
    current = await createTestHost({ feature });
    const host = current.host;
    await host.consent.grantTool('feature', 'echo', true);
    expect((await host.calls.callTool('feature', 'echo', { text: 'approved' })).content).toEqual([{ type: 'text', text: 'approved' }]);

    await host.registry.update('feature', { ...feature, args: [FEATURE_SERVER, '--name', 'someone-else'] });
    expect((await errorOf(host.calls.callTool('feature', 'echo', { text: 'not approved' }))).code).toBe('CONSENT_REQUIRED');
  });
});
