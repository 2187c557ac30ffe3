/**
 * `harbor install FILE.mcpb` end to end: a bundle packed with the official `mcpb pack` from a
 * fixture folder holding a real MCP server, installed through the built CLI, its tools called, its
 * sensitive setting only in the keychain; updates keep the person's settings; removal takes the
 * files; corrupt and invalid bundles are refused with nothing left behind. Needs the build (npm
 * test builds first) and, for the installs that store a secret, a keychain (CI provides one).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { packBundle } from '../helpers/bundles';
import { runCli } from '../helpers/cli';
import { NODE } from '../helpers/host';
import { requireKeychainInCi } from '../helpers/keychain';
import { requireSandboxInCi } from '../helpers/sandbox';
import { filesUnder, workspace as makeWorkspace } from '../helpers/workspace';
import { makeZip, minimalManifest } from '../helpers/zip';

const SERVICE = `harbor-test-install-${process.pid}-${randomBytes(4).toString('hex')}`;
const problem = await requireKeychainInCi();
// Each test runs the CLI several times; on a busy machine one run takes seconds.
vi.setConfig({ testTimeout: 120_000 });
const harbor = (args: string[]) => runCli(args, { env: { HARBOR_KEYCHAIN_SERVICE: SERVICE } });

const roots: string[] = [];
const workspace = (servers: Record<string, unknown> = {}) => makeWorkspace({ mcpServers: servers }, 'harbor-install-');
let bundles: string;
let hello: string;
let helloNext: string;
/** Installed servers get "sandbox" where this machine can run it (the setting is on by default). */
const sandboxed = (await requireSandboxInCi()) === undefined;

beforeAll(async () => {
  bundles = mkdtempSync(join(tmpdir(), 'harbor-bundles-'));
  roots.push(bundles);
  hello = await packBundle('hello', bundles);
  helloNext = await packBundle('hello', bundles, (m) => (m.version = '1.1.0'));
}, 120_000);

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('bundles that are refused leave nothing behind (exit 2)', () => {
  const cases: Array<[string, () => Buffer]> = [
    ['random bytes', () => randomBytes(4096)],
    ['a truncated bundle', () => readFileSync(hello).subarray(0, 900)],
    ['a zip without manifest.json', () => makeZip([{ name: 'server/index.mjs', data: 'x' }])],
    ['a manifest that does not match its schema', () => makeZip([{ name: 'manifest.json', data: minimalManifest({ author: 'nobody' }) }])],
    ['an unknown manifest version', () => makeZip([{ name: 'manifest.json', data: minimalManifest({ manifest_version: '9.9' }) }])],
    ['an entry escaping the folder (zip slip)', () => makeZip([{ name: 'manifest.json', data: minimalManifest() }, { name: '../evil.txt', data: 'owned' }])],
    ['a symbolic link', () => makeZip([{ name: 'manifest.json', data: minimalManifest() }, { name: 'server/index.mjs', data: '/etc/passwd', mode: 0o120777 }])],
    ['an absolute path', () => makeZip([{ name: 'manifest.json', data: minimalManifest() }, { name: '/tmp/evil.txt', data: 'owned' }])],
  ];
  for (const [label, bytes] of cases) {
    it(`refuses ${label}`, async () => {
      const ws = workspace();
      roots.push(ws.root);
      const file = join(ws.root, 'bad.mcpb');
      writeFileSync(file, bytes());
      const before = readFileSync(ws.config, 'utf8');
      const run = await harbor([...ws.flags, '--json', 'install', file, '--set', 'api_key=x']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/Nothing was installed/);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.json()[0]).toMatchObject({ error: { code: 'BAD_REQUEST' } });
      expect(readFileSync(ws.config, 'utf8')).toBe(before);
      expect(existsSync(join(ws.data, 'bundles'))).toBe(false);
      expect(existsSync(join(ws.root, 'evil.txt'))).toBe(false);
    });
  }

  it('a missing required setting names it (exit 2) and writes nothing', async () => {
    const ws = workspace();
    roots.push(ws.root);
    const run = await harbor([...ws.flags, 'install', hello]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/"api_key" \(API key\)/);
    expect(run.stderr).toMatch(/--set api_key=VALUE/);
    expect(ws.registry().mcpServers).toEqual({});
    expect(existsSync(join(ws.data, 'bundles'))).toBe(false);
  });

  it('--dry-run shows the exact command and writes nothing (no keychain needed)', async () => {
    const ws = workspace();
    roots.push(ws.root);
    const run = await harbor([...ws.flags, 'install', hello, '--set', 'api_key=dry-run-key', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Command    ${NODE} ${join(ws.data, 'bundles', 'hello-bundle', '1.0.0', 'server', 'index.mjs')} --greeting Hello`);
    expect(run.stdout).toMatch(/Tools\s+greet, key_fingerprint, list_root/);
    expect(run.stdout).toMatch(/Signature\s+unsigned/);
    expect(run.stdout).not.toContain('dry-run-key');
    expect(ws.registry().mcpServers).toEqual({});
    expect(existsSync(join(ws.data, 'bundles'))).toBe(false);
  });

  it('an unknown --set key is refused, naming the settings the bundle has', async () => {
    const ws = workspace();
    roots.push(ws.root);
    const run = await harbor([...ws.flags, 'install', hello, '--set', 'apikey=x', '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no setting "apikey".*api_key, greeting, root/);
  });

  it('a name taken by another server is refused (never overwritten)', async () => {
    const ws = workspace({ mine: { command: NODE, args: ['x.mjs'] } });
    roots.push(ws.root);
    const run = await harbor([...ws.flags, 'install', hello, '--name', 'mine', '--set', 'api_key=x', '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/"mine" already exists/);
  });
});

describe.skipIf(problem !== undefined)(`installing, using, updating and removing a bundle${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const admin = new KeychainSecretStore({ service: SERVICE });
  afterAll(async () => {
    for (const name of await admin.list().catch(() => [])) await admin.delete(name).catch(() => false);
    await admin.dispose();
  });

  it('installs from the CLI, its tools work, and the sensitive setting is only in the keychain', async () => {
    const ws = workspace();
    roots.push(ws.root);
    const secret = `hello-key-${randomBytes(8).toString('hex')}`;
    const folder = mkdtempSync(join(tmpdir(), 'harbor-root-'));
    roots.push(folder);
    writeFileSync(join(folder, 'a.txt'), 'a');
    const install = await harbor([...ws.flags, '--json', 'install', hello, '--set', `api_key=${secret}`, '--set', 'greeting=Ahoy', '--set', `root=${folder}`, '--yes']);
    expect(install.code, install.stderr).toBe(0);
    const [report] = install.json<{ installed: boolean; plan: { server: string; secrets: unknown[]; sandbox: { requested: boolean } } }>();
    expect(report).toMatchObject({ installed: true, plan: { server: 'hello-bundle', secrets: [{ key: 'api_key', secret: 'hello-bundle-api_key' }], sandbox: { requested: sandboxed, enforced: sandboxed } } });

    const entry = ws.registry().mcpServers['hello-bundle']!;
    expect(entry).toMatchObject({
      command: '${harbor:node}',
      args: [join(ws.data, 'bundles', 'hello-bundle', '1.0.0', 'server', 'index.mjs'), '--greeting', 'Ahoy'],
      env: { HELLO_API_KEY: '${secret:hello-bundle-api_key}', HELLO_ROOT: folder },
      installed: { from: 'bundle', bundle: 'hello-bundle', version: '1.0.0' },
    });
    // Sandboxed where this machine can run it: the tool call below then runs inside the sandbox.
    expect(entry.sandbox).toBe(sandboxed ? true : undefined);
    // ${HOME} resolved, and the folder owner-only.
    expect((entry.env as Record<string, string>).HELLO_HOME).toMatch(/^\//);
    expect(statSync(join(ws.data, 'bundles', 'hello-bundle', '1.0.0')).mode & 0o077).toBe(0);

    const greet = await harbor([...ws.flags, '--json', 'call', 'hello-bundle', 'greet', '--args', '{"name":"Ada"}', '--yes']);
    expect(greet.code, greet.stderr).toBe(0);
    expect(greet.stdout).toContain('Ahoy, Ada!');
    const fingerprint = await harbor([...ws.flags, 'call', 'hello-bundle', 'key_fingerprint', '--yes']);
    expect(fingerprint.stdout.trim()).toBe(createHash('sha256').update(secret).digest('hex'));
    const listing = await harbor([...ws.flags, 'call', 'hello-bundle', 'list_root', '--yes']);
    expect(listing.stdout).toContain('"a.txt"');

    expect(await admin.get('hello-bundle-api_key')).toBe(secret);
    const leaks = [ws.config, ...filesUnder(ws.data), ...filesUnder(join(ws.root, 'config'))].filter((file) => readFileSync(file).includes(secret));
    expect(leaks).toEqual([]);
    const list = await harbor([...ws.flags, 'secret', 'list']);
    expect(list.stdout).toMatch(/hello-bundle-api_key .*belongs to: hello-bundle/);

    // A newer version updates in place, keeping the settings (the key stays in the keychain, the greeting stays).
    const update = await harbor([...ws.flags, 'install', helloNext, '--yes']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/Updated "hello-bundle" \(from 1\.0\.0\), keeping its settings/);
    const updated = ws.registry().mcpServers['hello-bundle']!;
    expect(updated).toMatchObject({ args: [join(ws.data, 'bundles', 'hello-bundle', '1.1.0', 'server', 'index.mjs'), '--greeting', 'Ahoy'], installed: { version: '1.1.0' } });
    expect(existsSync(join(ws.data, 'bundles', 'hello-bundle', '1.0.0'))).toBe(false);
    const again = await harbor([...ws.flags, 'call', 'hello-bundle', 'key_fingerprint', '--yes']);
    expect(again.stdout.trim()).toBe(createHash('sha256').update(secret).digest('hex'));

    // An older version is refused.
    const older = await harbor([...ws.flags, 'install', hello]);
    expect(older.code).toBe(2);
    expect(older.stderr).toMatch(/has version 1\.1\.0 of this bundle; this file is the older 1\.0\.0/);

    // Removing the server (here: by editing the file) removes its files at the next start.
    writeFileSync(ws.config, JSON.stringify({ mcpServers: {} }));
    const info = await harbor([...ws.flags, 'servers']);
    expect(info.code).toBe(0);
    expect(existsSync(join(ws.data, 'bundles'))).toBe(false);
  }, 180_000);

  it('without --yes the install is written but the first start asks for launch consent (exit 4)', async () => {
    const ws = workspace();
    roots.push(ws.root);
    const install = await harbor([...ws.flags, 'install', hello, '--name', 'greeter', '--set', 'api_key=k-123456789']);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/not approved yet: run "harbor consent grant-launch greeter"/);
    const call = await harbor([...ws.flags, 'call', 'greeter', 'greet', '--args', '{"name":"x"}']);
    expect(call.code).toBe(4);
    expect(call.stderr).toContain(join(ws.data, 'bundles', 'greeter', '1.0.0', 'server', 'index.mjs'));
  }, 120_000);
});
