/**
 * Secrets through the built CLI, as a person or a script uses it: `harbor secret set/list/delete`,
 * `${secret:…}` references in servers, `harbor import` moving literal tokens into the keychain,
 * and the leak test: after a session that resolves a secret and has servers echo it (tool results,
 * stderr, a crash), with --trace, the value is in no file Harbor wrote and in none of its output.
 * Needs the build (npm test builds first). Keychain tests need a Secret Service: CI starts one
 * (.ci/run); locally without one they are skipped, in CI they fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { FIXTURES, NODE, REPO } from '../helpers/host';
import { NO_KEYCHAIN_SIMULATION, requireKeychainInCi } from '../helpers/keychain';

const CLI = join(REPO, 'out/main/cli.js');
const ECHO_ENV = join(FIXTURES, 'echo-env.mjs');
const SERVICE = `harbor-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newSecret = () => `sk-test-${randomBytes(12).toString('hex')}`;


const problem = await requireKeychainInCi();

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  json<T = Record<string, unknown>>(): T[];
}

/** Every byte the CLI printed in this file's runs, for the leak check. */
const printed: string[] = [];

function harbor(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does).`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // The whole environment is replaced (not merged) so that a test can take DBUS_SESSION_BUS_ADDRESS away.
    const child = spawn(NODE, [CLI, ...args], { env: { ...(options.env ?? process.env), HARBOR_KEYCHAIN_SERVICE: SERVICE }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harbor ${args.join(' ')} did not finish in 30 s. stderr: ${stderr}`));
    }, 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      printed.push(stdout, stderr);
      resolve({ code, stdout, stderr, ms: Date.now() - started, json: <T>() => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T) });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A temp dir per test: the registry in config/, Harbor's data in data/. */
function workspace(servers: Record<string, unknown> = {}): { root: string; config: string; data: string; flags: string[]; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'harbor-secrets-cli-'));
  const config = join(root, 'config', 'harbor.json');
  const data = join(root, 'data');
  mkdirSync(join(root, 'config'));
  writeFileSync(config, JSON.stringify({ mcpServers: servers }, null, 2));
  return { root, config, data, flags: ['--config', config, '--data-dir', data], remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** An environment with no session bus at all (nor the per-user fallback socket). */
function noBus(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: dir };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  return env;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.skipIf(NO_KEYCHAIN_SIMULATION !== undefined)(`without any keychain, nothing hangs and nothing falls back to plain text${NO_KEYCHAIN_SIMULATION ? ` — skipped: ${NO_KEYCHAIN_SIMULATION}` : ''}`, () => {
  let ws: ReturnType<typeof workspace>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    ws = workspace({ echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:tok}' }, trusted: true } });
    mkdirSync(join(ws.root, 'run'));
    env = noBus(join(ws.root, 'run'));
    // A fresh data folder gives the registry's servers no secrets (#27.16): the person grants it.
    const granted = await harbor([...ws.flags, 'secret', 'grant', 'tok', 'echo'], { env });
    expect(granted.code, granted.stderr).toBe(0);
  });
  afterAll(() => ws?.remove());

  it('harbor secret set and secret list exit 5 with KEYCHAIN_UNAVAILABLE, saying plainly how to get a keychain; --json gives the code', async () => {
    const human = await harbor([...ws.flags, 'secret', 'set', 'tok'], { input: 'value-1234\n', env });
    expect(human.ms).toBeLessThan(10_000);
    expect(human.code).toBe(5);
    expect(human.stderr).toMatch(/OS keychain is unavailable: there is no D-Bus session bus/);
    expect(human.stderr).toMatch(/Install and unlock a Secret Service such as gnome-keyring/);
    expect(human.stderr).toMatch(/or KeePassXC with its Secret Service integration turned on/);
    const json = await harbor([...ws.flags, '--json', 'secret', 'set', 'tok'], { input: 'value-1234', env });
    expect(json.code).toBe(5);
    expect(json.json()[0]).toMatchObject({ error: { code: 'KEYCHAIN_UNAVAILABLE' } });
    const list = await harbor([...ws.flags, 'secret', 'list'], { env });
    expect(list.code).toBe(5);
    expect(list.stderr).toMatch(/OS keychain is unavailable/);
    expect(list.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a server referencing a secret shows error KEYCHAIN_UNAVAILABLE; harbor servers exits 5', async () => {
    const run = await harbor([...ws.flags, '--json', 'servers'], { env });
    expect(run.ms).toBeLessThan(10_000);
    expect(run.code).toBe(5);
    expect(run.json()[0]).toMatchObject({ name: 'echo', state: 'error', error: { code: 'KEYCHAIN_UNAVAILABLE', message: expect.stringMatching(/gnome-keyring/) } });
  });

  it('secret grant and revoke need no keychain; a secret not given to the server is refused first (4), then the keychain is missed (5)', async () => {
    const revoked = await harbor([...ws.flags, 'secret', 'revoke', 'tok', 'echo'], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe('"echo" no longer gets the secret "tok".\n');
    const refused = await harbor([...ws.flags, '--json', 'servers'], { env });
    expect(refused.json()[0]).toMatchObject({ name: 'echo', error: { code: 'CONSENT_REQUIRED', message: expect.stringContaining('harbor secret grant tok echo') } });
    expect(refused.code).toBe(4);
    const granted = await harbor([...ws.flags, 'secret', 'grant', 'tok', 'echo'], { env });
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toMatch(/^"echo" may now use the secret "tok"/);
    const missed = await harbor([...ws.flags, '--json', 'servers'], { env });
    expect(missed.json()[0]).toMatchObject({ name: 'echo', error: { code: 'KEYCHAIN_UNAVAILABLE' } });
    expect(missed.code).toBe(5);
  });

  it('harbor import refuses a file with literal tokens (exit 5), says nothing was imported and why, and writes nothing', async () => {
    const source = join(ws.root, 'claude_desktop_config.json');
    writeFileSync(source, JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_plaintext0000' } } } }));
    const before = readFileSync(ws.config, 'utf8');
    const run = await harbor([...ws.flags, '--json', 'import', source], { env });
    expect(run.code).toBe(5);
    expect(run.json()[0]).toMatchObject({ error: { code: 'KEYCHAIN_UNAVAILABLE' } });
    expect(run.stderr).toMatch(/Nothing was imported: .* holds 1 secret value that must move to the OS keychain \("gh" holds it\), and no keychain is available/);
    expect(run.stderr).toMatch(/--dry-run" shows the plan without a keychain/);
    expect(run.stderr).not.toContain('ghp_plaintext0000');
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
    expect(existsSync(`${ws.config}.bak`)).toBe(false);
  });

  it('harbor import --dry-run needs no keychain: exit 0, the plan, and a note that the real import will need one', async () => {
    const source = join(ws.root, 'claude_desktop_config.json');
    writeFileSync(source, JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_plaintext0000' } } } }));
    const before = readFileSync(ws.config, 'utf8');
    const json = await harbor([...ws.flags, '--json', 'import', source, '--dry-run'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json()[0]).toMatchObject({
      dryRun: true,
      written: false,
      added: ['gh'],
      secretsMoved: [{ server: 'gh', where: 'env', key: 'GITHUB_TOKEN', secret: 'gh-github_token' }],
      keychainUnavailable: expect.stringMatching(/no D-Bus session bus/),
    });
    const human = await harbor([...ws.flags, 'import', source, '--dry-run'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/would add: gh/);
    expect(human.stdout).toMatch(/no OS keychain is available here: importing for real would stop before writing anything/);
    expect(human.stdout + human.stderr).not.toContain('ghp_plaintext0000');
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
  });
});

describe.skipIf(problem !== undefined)(`secrets in the real keychain, through the CLI${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const admin = new KeychainSecretStore({ service: SERVICE });

  afterAll(async () => {
    for (const name of await admin.list().catch(() => [])) await admin.delete(name).catch(() => false);
    admin.dispose();
  });

  it('secret set (stdin, one newline stripped) / list (names only) / delete, with the documented exit codes', async () => {
    const ws = workspace({ echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:cli-tok}' }, trusted: true } });
    try {
      expect((await harbor([...ws.flags, 'secret', 'grant', 'cli-tok', 'echo'])).code).toBe(0); // a fresh folder binds nothing (#27.16)
      const set = await harbor([...ws.flags, 'secret', 'set', 'cli-tok'], { input: 'line-one\n' });
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain('Stored secret "cli-tok"');
      expect(set.stdout).toContain('Used by: echo (env.TOKEN)');
      expect(await admin.get('cli-tok')).toBe('line-one');

      const list = await harbor([...ws.flags, '--json', 'secret', 'list']);
      expect(list.code).toBe(0);
      expect(list.json<string[]>()).toEqual([['cli-tok']]);
      expect(list.stdout).not.toContain('line-one');
      const human = await harbor([...ws.flags, 'secret', 'list']);
      expect(human.stdout).toContain('cli-tok  (used by echo (env.TOKEN))');

      const argv = await harbor([...ws.flags, 'secret', 'set', 'cli-tok', 'in-argv-value']);
      expect(argv.code).toBe(2);
      expect(argv.stderr).toMatch(/read from stdin, never from the command line/);
      const empty = await harbor([...ws.flags, 'secret', 'set', 'cli-tok'], { input: '\n' });
      expect(empty.code).toBe(2);
      const badName = await harbor([...ws.flags, '--json', 'secret', 'set', 'bad/name'], { input: 'x1234' });
      expect(badName.code).toBe(2);
      expect(badName.json()[0]).toMatchObject({ error: { code: 'BAD_REQUEST' } });
      expect(await admin.get('cli-tok')).toBe('line-one');

      const deleted = await harbor([...ws.flags, '--json', 'secret', 'delete', 'cli-tok']);
      expect(deleted.code).toBe(0);
      expect(deleted.json()[0]).toEqual({ name: 'cli-tok', deleted: true });
      const again = await harbor([...ws.flags, '--json', 'secret', 'delete', 'cli-tok']);
      expect(again.code).toBe(2);
      expect(again.json()[0]).toMatchObject({ error: { code: 'SECRET_MISSING' } });

      // Referenced but gone: the server says which secret and how to set it.
      const servers = await harbor([...ws.flags, '--json', 'servers']);
      expect(servers.json()[0]).toMatchObject({ state: 'error', error: { code: 'SECRET_MISSING', message: expect.stringContaining('harbor secret set cli-tok') } });
    } finally {
      ws.remove();
    }
  }, 120_000);

  describe('the leak test: a whole session that resolves a secret and has servers echo it', () => {
    const secret = newSecret();
    let home: string;
    let env: NodeJS.ProcessEnv;
    let httpEcho: { url: string; child: ChildProcess } | undefined;
    let ws: ReturnType<typeof workspace>;

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'harbor-home-'));
      // HOME and the XDG dirs point into the test too, so a stray write anywhere Harbor looks is caught.
      env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local/state') };
      const child = spawn(NODE, [ECHO_ENV, '--http=0'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`echo-env --http exited with ${code}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => resolve((JSON.parse(line) as { listening: string }).listening));
      });
      httpEcho = { url, child };
      ws = workspace({
        echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:leak-tok}' }, trusted: true },
        leaky: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:leak-tok}', ECHO_ENV_AT_START: 'TOKEN', ECHO_ENV_EXIT_AT_START: '1' }, trusted: true },
        remote: { url, headers: { Authorization: 'Bearer ${secret:leak-tok}' }, trusted: true },
      });
    });

    afterAll(() => {
      httpEcho?.child.kill('SIGTERM');
      ws?.remove();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('the servers get the value; every output and every file Harbor wrote has *** instead', async () => {
      const set = await harbor([...ws.flags, 'secret', 'set', 'leak-tok'], { input: `${secret}\n`, env });
      expect(set.code, set.stderr).toBe(0);
      // A fresh data folder gives the registry's servers no secrets (#27.16): the person grants them.
      for (const server of ['echo', 'leaky', 'remote']) expect((await harbor([...ws.flags, 'secret', 'grant', 'leak-tok', server], { env })).code).toBe(0);

      const runs: Run[] = [];
      const call = await harbor([...ws.flags, '--trace', 'call', 'echo', 'get_env', '--args', '{"name":"TOKEN"}', '--yes'], { env });
      runs.push(call);
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout.trim()).toBe('***');
      expect(call.stderr).toContain('"text":"***"'); // the traced response, masked

      const json = await harbor([...ws.flags, '--trace', '--json', 'call', 'echo', 'get_env', '--args', '{"name":"TOKEN"}', '--yes'], { env });
      runs.push(json);
      const result = json.json<{ structuredContent: { sha256: string; value: string } }>()[0]!;
      expect(result.structuredContent.sha256).toBe(sha256(secret)); // the server did get the real value
      expect(result.structuredContent.value).toBe('***');

      const header = await harbor([...ws.flags, '--trace', '--json', 'call', 'remote', 'get_header', '--args', '{"name":"authorization"}', '--yes'], { env });
      runs.push(header);
      expect(header.json<{ structuredContent: { sha256: string } }>()[0]!.structuredContent.sha256).toBe(sha256(`Bearer ${secret}`));

      const servers = await harbor([...ws.flags, '--trace', 'servers'], { env });
      runs.push(servers);
      expect(servers.stdout).toMatch(/leaky\s+error/);
      expect(servers.stdout).toContain('startup TOKEN=***');
      runs.push(await harbor([...ws.flags, '--json', 'servers'], { env }));
      const crashed = await harbor([...ws.flags, '--trace', 'call', 'leaky', 'get_env', '--args', '{"name":"TOKEN"}', '--yes'], { env });
      runs.push(crashed);
      expect(crashed.code).toBe(3);
      runs.push(await harbor([...ws.flags, 'secret', 'list'], { env }));

      // Zero hits: everything the CLI printed in this file, and every file under the config dir,
      // the data dir and the fake home.
      for (const text of printed) expect(text).not.toContain(secret);
      const written = [...filesUnder(join(ws.root, 'config')), ...filesUnder(ws.data), ...filesUnder(home)];
      expect(written.some((f) => f.startsWith(ws.data)), `Harbor wrote nothing under ${ws.data}: ${written.join(', ')}`).toBe(true);
      for (const file of written) expect(readFileSync(file).toString('latin1'), file).not.toContain(secret);
      expect(readFileSync(ws.config, 'utf8')).toContain('${secret:leak-tok}');
    }, 180_000);
  });

  it('harbor import moves literal tokens into the keychain, writes references, and the imported server runs with them', async () => {
    const ws = workspace();
    const token = `ghp_${randomBytes(10).toString('hex')}`;
    const bearer = newSecret();
    const source = join(ws.root, 'claude_desktop_config.json');
    writeFileSync(
      source,
      JSON.stringify({
        mcpServers: {
          github: { command: NODE, args: [ECHO_ENV], env: { GITHUB_TOKEN: token, GITHUB_API_URL: 'https://api.github.com' } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${bearer}` } },
        },
      }),
    );
    try {
      const dry = await harbor([...ws.flags, '--json', 'import', source, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.json()[0]).toMatchObject({ dryRun: true, written: false, secretsMoved: [{ server: 'github', key: 'GITHUB_TOKEN', secret: 'github-github_token' }, { server: 'remote', key: 'Authorization', secret: 'remote-authorization' }] });
      expect(await admin.get('github-github_token')).toBeUndefined(); // a dry run moves nothing

      const run = await harbor([...ws.flags, '--json', 'import', source]);
      expect(run.code, run.stderr).toBe(0);
      const out = run.json()[0]!;
      expect(out).toMatchObject({ written: true, added: ['github', 'remote'] });
      expect(out.secretsMoved).toEqual([
        { server: 'github', where: 'env', key: 'GITHUB_TOKEN', secret: 'github-github_token' },
        { server: 'remote', where: 'headers', key: 'Authorization', secret: 'remote-authorization' },
      ]);
      expect(await admin.get('github-github_token')).toBe(token);
      expect(await admin.get('remote-authorization')).toBe(bearer);
      const registry = readFileSync(ws.config, 'utf8');
      expect(registry).not.toContain(token);
      expect(registry).not.toContain(bearer);
      const file = JSON.parse(registry) as { mcpServers: Record<string, { env?: object; headers?: object }> };
      expect(file.mcpServers.github!.env).toEqual({ GITHUB_TOKEN: '${secret:github-github_token}', GITHUB_API_URL: 'https://api.github.com' });
      expect(file.mcpServers.remote!.headers).toEqual({ Authorization: 'Bearer ${secret:remote-authorization}' });

      const human = await harbor([...ws.flags, 'import', source]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain('nothing to do');
      expect(readFileSync(ws.config, 'utf8')).toBe(registry); // importing again changes nothing

      const call = await harbor([...ws.flags, '--json', 'call', 'github', 'get_env', '--args', '{"name":"GITHUB_TOKEN"}', '--yes']);
      expect(call.code, call.stderr).toBe(0);
      expect(call.json<{ structuredContent: { sha256: string } }>()[0]!.structuredContent.sha256).toBe(sha256(token));
      for (const text of [dry, run, human, call].flatMap((r) => [r.stdout, r.stderr])) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(bearer);
      }
    } finally {
      ws.remove();
    }
  }, 120_000);
});
