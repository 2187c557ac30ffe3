/**
 * Finding 5 (round three): a package identifier could be a runner's flag — `npx -y "--call=…"`,
 * `uvx --from …`, `docker run --privileged …`, `dnx --add-source …`, or a version `-rf`. Registry
 * identifiers and versions are checked against each ecosystem's naming rules before anything is
 * shown as installable or written: `gallery add` is exit 2 naming the identifier, nothing written,
 * nothing run; `gallery search` shows the way as one Harbor cannot install.
 * Real CLI processes against a local MCP Registry on 127.0.0.1.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli';
import { REPO } from '../helpers/host';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { workspace } from '../helpers/workspace';

vi.setConfig({ testTimeout: 120_000 });

const ATTACKS = join(REPO, 'test/fixtures/registry/attacks');
let registry: LocalRegistry;
const roots: string[] = [];

beforeAll(async () => {
  registry = await startRegistry({ servers: ATTACKS });
});

afterAll(async () => {
  await registry?.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const CASES = [
  { entry: 'io.example/flag-npm', shown: '--call=node -e process.exit(7)', kind: 'npm package name' },
  { entry: 'io.example/flag-pypi', shown: '--from', kind: 'PyPI package name' },
  { entry: 'io.example/flag-oci', shown: '--privileged', kind: 'OCI image reference' },
  { entry: 'io.example/flag-nuget', shown: '--add-source', kind: 'NuGet package id' },
  { entry: 'io.example/flag-version', shown: '-rf', kind: 'version' },
];

describe('identifiers and versions that are a runner’s flags', () => {
  it.each(CASES)('gallery add $entry: exit 2 naming "$shown", nothing written', async ({ entry, shown, kind }) => {
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-ids-');
    roots.push(ws.root);
    const before = readFileSync(ws.config, 'utf8');
    for (const extra of [['--dry-run'], ['--yes'], ['--yes', '--option', '0']]) {
      const run = await runCli([...ws.flags, 'gallery', 'add', entry, '--registry', registry.url, ...extra]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`"${shown}"`);
      expect(run.stderr).toContain(`not a valid ${kind}`);
      expect(run.stdout).not.toContain('npx');
      expect(readFileSync(ws.config, 'utf8')).toBe(before);
    }
  });

  it('gallery search shows each as a way Harbor cannot install, naming the identifier', async () => {
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-ids-');
    roots.push(ws.root);
    const run = await runCli([...ws.flags, '--json', 'gallery', 'search', 'flag-', '--registry', registry.url]);
    expect(run.code, run.stderr).toBe(0);
    const servers = run.json<{ name: string; options: Array<{ supported: boolean; note?: string }> }>();
    expect(servers.map((s) => s.name).sort()).toEqual(CASES.map((c) => c.entry).sort());
    for (const { entry, shown } of CASES) {
      const option = servers.find((s) => s.name === entry)!.options[0]!;
      expect(option.supported, entry).toBe(false);
      expect(option.note).toContain(`"${shown}"`);
    }
  });
});
