/**
 * Finding 12 (round three): look-alike hosts and names. A remote URL `https://gіthub.com/mcp`
 * (Cyrillic і) was shown as readable Unicode with no warning; a server named `harbor-nоtes`
 * (Cyrillic о) looks identical to `harbor-notes`; `https://github.com@127.0.0.1/…` reads as
 * github.com. Now the host is shown in punycode beside its Unicode form, a mixed-script host or
 * name gets a warning and is refused on import and install unless the person confirms
 * (--allow-lookalike; exit 4 otherwise, nothing written), and a remote URL with a user name or
 * password is refused everywhere (the registry schema). Real CLI processes, a local registry.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli';
import { REPO } from '../helpers/host';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { workspace as makeWorkspace } from '../helpers/workspace';

vi.setConfig({ testTimeout: 120_000 });

const ATTACKS = join(REPO, 'test/fixtures/registry/attacks');
let registry: LocalRegistry;
const roots: string[] = [];
function workspace(file: Record<string, unknown> = { mcpServers: {} }) {
  const ws = makeWorkspace(file, 'harbor-sec-look-');
  roots.push(ws.root);
  return ws;
}

beforeAll(async () => {
  registry = await startRegistry({ servers: ATTACKS });
});

afterAll(async () => {
  await registry?.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function importFile(servers: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-sec-look-import-'));
  roots.push(dir);
  const file = join(dir, 'claude_desktop_config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

describe('a look-alike host from the gallery', () => {
  it('shows the punycode beside the Unicode host with a warning, and installs only with --allow-lookalike', async () => {
    const ws = workspace();
    const dry = await runCli([...ws.flags, 'gallery', 'add', 'io.example/lookalike-remote', '--registry', registry.url, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('xn--gthub-n2e.com');
    expect(dry.stdout.split('\n').find((l) => l.startsWith('warning'))).toMatch(/gіthub\.com.*xn--gthub-n2e\.com.*mixes scripts/);
    const before = readFileSync(ws.config, 'utf8');
    const yes = await runCli([...ws.flags, 'gallery', 'add', 'io.example/lookalike-remote', '--registry', registry.url, '--yes']);
    expect(yes.code, yes.stderr).toBe(4);
    expect(yes.stderr).toContain('--allow-lookalike');
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
    const allowed = await runCli([...ws.flags, 'gallery', 'add', 'io.example/lookalike-remote', '--registry', registry.url, '--yes', '--allow-lookalike']);
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it('a remote URL with a user name is refused (exit 2), nothing written', async () => {
    const ws = workspace();
    const before = readFileSync(ws.config, 'utf8');
    const run = await runCli([...ws.flags, 'gallery', 'add', 'io.example/userinfo-remote', '--registry', registry.url, '--yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/user name or password/);
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
  });
});

describe('look-alikes on import', () => {
  it('a mixed-script server name or host is refused without --allow-lookalike (exit 4, nothing written)', async () => {
    const ws = workspace();
    const file = importFile({ 'harbor-nоtes': { command: 'node', args: ['notes.mjs'] }, gh: { url: 'https://gіthub.com/mcp' } });
    const before = readFileSync(ws.config, 'utf8');
    const run = await runCli([...ws.flags, 'import', file]);
    expect(run.code, run.stderr).toBe(4);
    expect(`${run.stdout}${run.stderr}`).toContain('harbor-nоtes');
    expect(`${run.stdout}${run.stderr}`).toContain('xn--gthub-n2e.com');
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
    const allowed = await runCli([...ws.flags, 'import', file, '--allow-lookalike']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(Object.keys(ws.registry().mcpServers).sort()).toEqual(['gh', 'harbor-nоtes']);
  });

  it('a remote URL with a user name is not imported', async () => {
    const ws = workspace();
    const run = await runCli([...ws.flags, 'import', importFile({ gh: { url: 'https://github.com@127.0.0.1/mcp' } })]);
    expect(run.code, run.stderr).toBe(2);
    expect(`${run.stdout}${run.stderr}`).toMatch(/user name or password/);
    expect(ws.registry().mcpServers).toEqual({});
  });

  it('a registry file holding such a URL is reported as a problem', async () => {
    const ws = workspace({ mcpServers: { gh: { url: 'https://github.com:pw@127.0.0.1/mcp' } } });
    const run = await runCli([...ws.flags, 'info']);
    expect(`${run.stdout}${run.stderr}`).toMatch(/user name or password/);
  });
});
