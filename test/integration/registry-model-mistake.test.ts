/**
 * A mistake in "model" stops only chat and sampling (#31 item 3): `"baseUrl"` for `"baseURL"` made
 * `harbor call` and `harbor servers` exit 2 with the message printed twice and no hint. Now those
 * work, chat refuses once with the problem and "did you mean", and unknown keys anywhere get the
 * same hint. The built CLI over a real server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FEATURE_SERVER, NODE } from '../helpers/host';
import { runCli, tempRegistry } from '../helpers/cli';

const registry = tempRegistry({});
writeFileSync(
  registry.config,
  JSON.stringify(
    {
      mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER], timeoutMS: 5000 } },
      model: { provider: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:9/v1' },
    },
    null,
    2,
  ),
);
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

describe('a mistake in "model"', () => {
  it('leaves servers and calls working', async () => {
    const before = readFileSync(registry.config, 'utf8');
    const servers = await runCli([...g, '--json', 'servers', '--yes']);
    expect(servers.stderr).toBe('');
    expect(servers.code).toBe(0);
    const call = await runCli([...g, '--json', 'call', 'feature', 'add', '--args', '{"a":2,"b":3}', '--yes']);
    expect(call.code).toBe(0);
    expect(readFileSync(registry.config, 'utf8')).toBe(before);
  });

  it('stops chat once, naming the problem and the key it meant', async () => {
    const chat = await runCli([...g, 'chat', '--yes', 'hello']);
    expect(chat.code).toBe(2);
    expect(chat.stderr).toContain('model.baseURL');
    expect(chat.stderr).toContain('model.baseUrl: unknown field; did you mean "baseURL"?');
    // Said once, not twice.
    expect(chat.stderr.split('did you mean "baseURL"').length).toBe(2);
  });

  it('gives "did you mean" for a misspelt key anywhere (harbor info lists the file\'s problems)', async () => {
    // info exits 2 while the file has problems (its contract), listing each, the hints included.
    const info = await runCli([...g, '--json', 'info']);
    expect(info.code).toBe(2);
    expect(info.stdout).toContain('model.baseURL');
    expect(info.stdout).toContain('mcpServers.feature.timeoutMS: unknown field; did you mean \\"timeoutMs\\"?');
  });
});
