/**
 * `harbor import FILE --only NAME[,NAME…]` (#31 item 22): with no keychain, a file where one server holds
 * a literal secret used to import nothing at all; now the error names the servers that need no
 * keychain and `--only` imports just those. The real built CLI; the keychain is taken away the way
 * a machine without one lacks it (no D-Bus session bus).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { NO_KEYCHAIN_SIMULATION } from '../helpers/keychain';

const dir = mkdtempSync(join(tmpdir(), 'harbor-import-only-'));
const file = join(dir, 'claude_desktop_config.json');
writeFileSync(
  file,
  JSON.stringify({
    mcpServers: {
      plain: { command: 'node', args: ['server.js'] },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
      other: { command: 'uvx', args: ['mcp-server-time'] },
    },
  }),
);
const noKeychain = { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}` };
let n = 0;
const fresh = () => {
  const home = join(dir, String(++n));
  return { config: join(home, 'harbor.json'), g: ['--config', join(home, 'harbor.json'), '--data-dir', home] };
};
const servers = (config: string) => Object.keys((JSON.parse(readFileSync(config, 'utf8')) as { mcpServers: object }).mcpServers);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(NO_KEYCHAIN_SIMULATION)('harbor import --only', () => {
  it('without a keychain, names the servers that need none and how to import them', async () => {
    const { g } = fresh();
    const run = await runCli([...g, 'import', file], { env: noKeychain });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('Nothing was imported');
    expect(run.stderr).toContain('"github" holds it');
    expect(run.stderr).toContain(`harbor import ${file} --only plain,other`);
  });

  it('imports only the servers named, which need no keychain', async () => {
    const { g, config } = fresh();
    const run = await runCli([...g, 'import', file, '--only', 'plain,other'], { env: noKeychain });
    expect(run.code, run.stderr).toBe(0);
    // A fresh registry starts with Harbor's example server ("notes"); of the file's, only those named.
    expect(servers(config).filter((name) => name !== 'notes').sort()).toEqual(['other', 'plain']);
  });

  it('refuses a name the file does not hold, naming the ones it does; nothing is written', async () => {
    const { g, config } = fresh();
    const run = await runCli([...g, 'import', file, '--only', 'plian'], { env: noKeychain });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--only: ${file} has no server named "plian". Its servers: plain, github, other.`);
    expect(servers(config).filter((name) => ['plain', 'github', 'other'].includes(name))).toEqual([]);
  });
});
