/**
 * `harbor import` of a VS Code workspace file with `inputs`, end to end with the built CLI, real
 * files and the real keychain: defaults and `--set` values fill the inputs, a password goes to the
 * keychain as `${secret:…}`, a terminal is asked (a real pty through `script`), and whatever stays
 * unfilled is a registry problem that `harbor info` reports (exit 2) and that keeps only that
 * server from starting.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { CLI } from '../helpers/cli';
import { FEATURE_SERVER, NODE } from '../helpers/host';
import { requireKeychainInCi } from '../helpers/keychain';

const SERVICE = `harbor-test-inputs-${process.pid}-${randomBytes(4).toString('hex')}`;
const problem = await requireKeychainInCi();
const root = mkdtempSync(join(tmpdir(), 'harbor-import-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A workspace with .vscode/mcp.json, and a registry + data dir of its own. */
function workspace(): { source: string; project: string; config: string; flags: string[] } {
  const dir = join(root, String(++counter));
  const project = join(dir, 'project');
  mkdirSync(join(project, '.vscode'), { recursive: true });
  const source = join(project, '.vscode', 'mcp.json');
  writeFileSync(
    source,
    `// a VS Code workspace file
{
  "inputs": [
    { "type": "promptString", "id": "root-dir", "description": "Folder to serve", "default": "${project}" },
    { "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true },
    { "type": "promptString", "id": "greeting", "description": "Greeting" },
  ],
  "servers": {
    "feature": { "type": "stdio", "command": ${JSON.stringify(NODE)}, "args": [${JSON.stringify(FEATURE_SERVER)}], "cwd": "\${input:root-dir}", "env": { "GITHUB_TOKEN": "\${input:gh-token}" } },
    "hello": { "type": "stdio", "command": ${JSON.stringify(NODE)}, "args": [${JSON.stringify(FEATURE_SERVER)}, "\${workspaceFolder}"], "env": { "GREETING": "\${input:greeting}" } },
  },
}
`,
  );
  const config = join(dir, 'harbor.json');
  writeFileSync(config, '{"mcpServers":{}}\n');
  return { source, project, config, flags: ['--config', config, '--data-dir', join(dir, 'data')] };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function harbor(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, ...args], { env: { ...process.env, HARBOR_KEYCHAIN_SERVICE: SERVICE }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const registryOf = (config: string) => JSON.parse(readFileSync(config, 'utf8')) as { mcpServers: Record<string, { args?: string[]; env?: Record<string, string>; cwd?: string }> };

describe.skipIf(problem !== undefined)(`harbor import fills VS Code inputs${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const store = new KeychainSecretStore({ service: SERVICE });
  afterAll(async () => {
    for (const name of await store.list()) await store.delete(name);
    store.dispose();
  });

  it('defaults and --set fill the inputs; the password goes to the keychain and belongs to its server; ${workspaceFolder} is the workspace', async () => {
    const ws = workspace();
    const run = await harbor([...ws.flags, '--json', 'import', ws.source, '--set', 'gh-token=ghp_from_set_123', '--set', 'greeting=hi=there']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { inputsReferenced: unknown[]; secretsMoved: unknown[] };
    expect(report.inputsReferenced).toEqual([
      { id: 'gh-token', description: 'GitHub token', password: true, defined: true, servers: ['feature'], filled: 'given' },
      { id: 'root-dir', description: 'Folder to serve', defined: true, servers: ['feature'], filled: 'default' },
      { id: 'greeting', description: 'Greeting', defined: true, servers: ['hello'], filled: 'given' },
    ]);
    expect(report.secretsMoved).toEqual([{ server: 'feature', where: 'env', key: 'GITHUB_TOKEN', secret: 'feature-github_token' }]);
    const file = registryOf(ws.config);
    expect(file.mcpServers.feature).toMatchObject({ cwd: ws.project, env: { GITHUB_TOKEN: '${secret:feature-github_token}' } });
    expect(file.mcpServers.hello).toMatchObject({ args: [FEATURE_SERVER, ws.project], env: { GREETING: 'hi=there' } });
    expect(readFileSync(ws.config, 'utf8')).not.toContain('ghp_from_set_123');
    expect(await store.get('feature-github_token')).toBe('ghp_from_set_123');
    // Like a literal token the import moved, the password belongs to the server it was given for (no grant needed).
    const secrets = await harbor([...ws.flags, 'secret', 'list']);
    expect(secrets.stdout).toMatch(/^feature-github_token {2}\(used by feature \(env\.GITHUB_TOKEN\)\) {2}belongs to: feature$/m);
    expect(secrets.stdout).not.toMatch(/not given to/);
    const info = await harbor([...ws.flags, 'info']);
    expect(info.code).toBe(0);
    expect(info.stdout).not.toMatch(/problems:/);
  });

  it('an input left without a value: import says so, harbor info reports it (exit 2), only that server stays down', async () => {
    const ws = workspace();
    const run = await harbor([...ws.flags, 'import', ws.source, '--set', 'gh-token=ghp_from_set_456']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/inputs without a value .*\n {2}\$\{input:greeting\} "Greeting" used by hello/);
    const info = await harbor([...ws.flags, 'info']);
    expect(info.code).toBe(2);
    expect(info.stdout).toMatch(/problems:\n {2}mcpServers\.hello: env\.GREETING: \$\{input:greeting\} is a value another app \(VS Code\) asks for when the server starts; Harbor does not\. .*--set greeting=VALUE/);
    const servers = await harbor([...ws.flags, '--json', 'servers', '--yes']);
    const lines = servers.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; state: string; error?: { code: string; message: string } });
    expect(lines.find((l) => l.name === 'feature')).toMatchObject({ state: 'ready' });
    expect(lines.find((l) => l.name === 'hello')).toMatchObject({ state: 'error', error: { code: 'CONFIG_INVALID', message: expect.stringMatching(/"hello" cannot start as written: env\.GREETING: \$\{input:greeting\}/) } });
    expect(servers.code).toBe(2);
  });

  it('a --set for an input the file does not have: exit 2 naming its inputs, nothing written', async () => {
    const ws = workspace();
    const run = await harbor([...ws.flags, 'import', ws.source, '--set', 'gh-tokn=x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/uses no input named "gh-tokn": nothing was imported\. Its inputs: gh-token, root-dir, greeting\./);
    expect(readFileSync(ws.config, 'utf8')).toBe('{"mcpServers":{}}\n');
  });

  it('an input given twice: exit 2 naming it, nothing written (not the last one silently winning)', async () => {
    const ws = workspace();
    const run = await harbor([...ws.flags, 'import', ws.source, '--set', 'greeting=hi', '--set', 'greeting=hello']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--set greeting is given 2 times: give it one value.');
    expect(readFileSync(ws.config, 'utf8')).toBe('{"mcpServers":{}}\n');
    const bad = await harbor([...ws.flags, 'import', ws.source, '--set', 'greeting']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--set needs ID=VALUE (an input id of the file, "=", its value), got "greeting". Example: --set root-dir=/home/me/projects');
  });

  it.skipIf(!existsSync('/usr/bin/script'))('on a terminal, asks for each input without a value; the password is not echoed', async () => {
    const ws = workspace();
    const command = [NODE, CLI, ...ws.flags, 'import', ws.source].map((a) => `'${a}'`).join(' ');
    // `script` gives the CLI a real pty; the answers are typed once each prompt is shown.
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, HARBOR_KEYCHAIN_SERVICE: SERVICE }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const answers: Array<readonly [prompt: string, typed: string]> = [
      ['GitHub token (not shown; goes to the OS keychain): ', 'ghp_typed_789\r'],
      ['Greeting: ', 'hello there\r'],
    ];
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const next = answers[0];
      if (next && output.includes(next[0])) {
        answers.shift();
        child.stdin.write(next[1]);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    expect(output).not.toContain('ghp_typed_789');
    expect(output).toContain('hello there'); // a plain input is echoed as typed
    const file = registryOf(ws.config);
    // Earlier tests stored other values under the same name: this one gets the next free name.
    const reference = /^\$\{secret:(feature-github_token(?:-\d+)?)\}$/.exec(file.mcpServers.feature?.env?.GITHUB_TOKEN ?? '');
    expect(reference, JSON.stringify(file.mcpServers.feature)).not.toBeNull();
    expect(file.mcpServers.hello?.env).toEqual({ GREETING: 'hello there' });
    expect(await store.get(reference![1]!)).toBe('ghp_typed_789');
  });
});
