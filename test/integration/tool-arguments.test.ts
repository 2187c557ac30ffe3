/**
 * Tool arguments are checked against the tool's inputSchema before anything is sent: the CLI
 * says which field is wrong and exits 2, and the server never sees the call. A real server from
 * npm (server-everything, whose get-sum wants two numbers), the real built CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { EVERYTHING_SERVER, NODE } from '../helpers/host';

const registry = tempRegistry({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } });
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

describe('tool arguments checked against the inputSchema', () => {
  it('refuses arguments that do not fit, naming the field, with exit 2 and nothing sent', async () => {
    const run = await runCli([...g, '--trace', 'call', 'everything', 'get-sum', '--args', '{"a":"two","b":3}', '--yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/arguments for tool "get-sum" of "everything" do not match its input schema: "a" must be a number/);
    expect(run.stderr).not.toMatch(/"method":"tools\/call"/);

    const missing = await runCli([...g, 'call', 'everything', 'get-sum', '--args', '{"a":1}', '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/"b" is required/);
  });

  it('lets through what the schema allows', async () => {
    const run = await runCli([...g, '--json', 'call', 'everything', 'get-sum', '--args', '{"a":2,"b":3}', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(run.json()[0])).toMatch(/5/);
  });
});
