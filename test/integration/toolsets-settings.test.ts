/**
 * Toolsets edited through the Host's settings door (what the app's commands call): one registry
 * edit under its lock, a bad entry refused naming it, removal; the chat's settings see the result.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../helpers/host';
import { featureServer } from '../fixtures/model/chat-host';

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('settings.setToolset', () => {
  it('writes the toolset to harbor.json, refuses a bad entry, and removes it', async () => {
    test = await createTestHost({ local: featureServer() });
    const { host } = test;
    const view = await host.settings.setToolset('math', ['local/add', 'local/*']);
    expect(view.toolsets).toEqual({ math: ['local/add', 'local/*'] });
    expect(JSON.parse(readFileSync(host.appInfo().configPath, 'utf8')).toolsets).toEqual({ math: ['local/add', 'local/*'] });
    expect(host.settings.chat().toolsets).toEqual({ math: ['local/add', 'local/*'] });

    await expect(host.settings.setToolset('bad', ['no-slash'])).rejects.toThrow(/"SERVER\/TOOL"/);
    expect(JSON.parse(readFileSync(host.appInfo().configPath, 'utf8')).toolsets).toEqual({ math: ['local/add', 'local/*'] });

    expect((await host.settings.setToolset('math', null)).toolsets).toEqual({});
    expect(JSON.parse(readFileSync(host.appInfo().configPath, 'utf8'))).not.toHaveProperty('toolsets');
    await expect(host.settings.setToolset('gone', null)).rejects.toThrow(/no toolset named "gone"/);
  });
});
