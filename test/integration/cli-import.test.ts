/**
 * `harbor import` end to end: the built CLI as a user runs it, against real files in a temp dir.
 * Needs the build (npm test builds first; by hand: npx electron-vite build).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFIGS } from '../fixtures/configs/load';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin', 'harbor.js');
const BUILT_CLI = join(ROOT, 'out', 'main', 'cli.js');

const CLAUDE = join(CONFIGS, 'claude-desktop', 'claude_desktop_config.json');
const VSCODE = join(CONFIGS, 'vscode', 'mcp.json');
const SECRET_VALUES = ['ghp_FAKEfake', 'sk-FAKE-legacy-token', 'FAKE-api-key-5678'];
// Literal secrets move into the real keychain at import: a service of our own keeps them apart
// from the person's secrets, and afterAll deletes what the tests stored.
const KEYCHAIN_SERVICE = `harbor-test-import-${process.pid}-${Date.now()}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function harbor(args: string[]): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env, HARBOR_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE };
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 60_000, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

let root: string;
let dir: string;
let config: string;
let dataDir: string;
let counter = 0;

/** `harbor --config <tmp> --data-dir <tmp> import …` */
function runImport(...args: string[]): Promise<Run> {
  return harbor(['--config', config, '--data-dir', dataDir, 'import', ...args]);
}

/** The single JSON object a --json run prints on stdout. */
function parseJsonOutput(run: Run): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  expect(lines, run.stdout).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

async function readJson(path: string): Promise<{ mcpServers: Record<string, unknown> } & Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as { mcpServers: Record<string, unknown> } & Record<string, unknown>;
}

beforeAll(async () => {
  if (!existsSync(BUILT_CLI)) throw new Error('The import tests run the built CLI: run "npx electron-vite build" (npm test does) first.');
  const help = await harbor(['--help']);
  if (!help.stdout.includes('import FILE')) {
    throw new Error('The built CLI has no "import" command: the build is stale. Run "npx electron-vite build" first.');
  }
  root = await mkdtemp(join(tmpdir(), 'harbor-cli-import-'));
});

beforeEach(async () => {
  dir = join(root, String(++counter));
  config = join(dir, 'harbor.json');
  dataDir = join(dir, 'data');
  await mkdir(dir, { recursive: true });
});

afterAll(async () => {
  const listed = await harbor(['--json', 'secret', 'list']);
  if (listed.code === 0) {
    for (const name of JSON.parse(listed.stdout.trim() || '[]') as string[]) await harbor(['secret', 'delete', name]);
  }
  if (root) await rm(root, { recursive: true, force: true });
});

describe('harbor import (Claude Desktop file into a fresh registry)', () => {
  it('imports the valid servers, reports the rest, and writes an owner-only registry', async () => {
    const run = await runImport(CLAUDE, '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out).toMatchObject({
      format: 'claude-desktop',
      written: true,
      added: ['filesystem', 'github', 'weather', 'linear', 'legacy-sse', 'streamable', 'paused'],
      identical: [],
      clashes: [],
      secretsDetected: [
        { server: 'github', key: 'GITHUB_PERSONAL_ACCESS_TOKEN', where: 'env' },
        { server: 'legacy-sse', key: 'Authorization', where: 'headers' },
        { server: 'streamable', key: 'X-Api-Key', where: 'headers' },
      ],
      inputsReferenced: [],
    });
    expect((out.skipped as Array<{ name: string }>).map((s) => s.name)).toEqual(['bad-args', 'bad-command', 'nothing', 'bad-url', 'not-an-object']);
    expect(out.skipped).toContainEqual({ name: 'bad-args', problems: ['args[1]: expected string, got an object'] });
    for (const value of SECRET_VALUES) {
      expect(run.stdout).not.toContain(value);
      expect(run.stderr).not.toContain(value);
    }

    const file = await readJson(config);
    expect(file.mcpServers.github).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      // The literal token moved to the keychain; the file keeps only a reference to it.
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:github-github_personal_access_token}', GITHUB_API_URL: 'https://api.github.com' },
    });
    const stored = await harbor(['--json', 'secret', 'list']);
    expect(JSON.parse(stored.stdout.trim())).toContain('github-github_personal_access_token');
    expect(file.mcpServers['legacy-sse']).toMatchObject({ url: 'https://legacy.example.com/sse', transport: 'sse' });
    expect(file.mcpServers.paused).toEqual({ command: 'node', args: ['server.js'], enabled: false });
    expect(file.mcpServers).not.toHaveProperty('bad-args');
    if (process.platform !== 'win32') expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('harbor import (into an existing registry)', () => {
  const previous = `${JSON.stringify(
    {
      $comment: 'kept by Harbor',
      mcpServers: {
        github: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], myNote: 'mine' },
        linear: { url: 'https://mcp.linear.app/mcp', trusted: true },
      },
    },
    null,
    2,
  )}\n`;

  beforeEach(async () => {
    await writeFile(config, previous);
  });

  it('refuses a clash without --rename: exit 2, nothing written, no .bak, and says how to resolve', async () => {
    const run = await runImport(CLAUDE, '--json');
    expect(run.code).toBe(2);
    const out = parseJsonOutput(run);
    expect(out).toMatchObject({ written: false, clashes: [{ name: 'github' }], identical: ['linear'] });
    expect(out.added).toEqual(['filesystem', 'weather', 'legacy-sse', 'streamable', 'paused']);
    expect(run.stderr).toContain('nothing was written');
    expect(run.stderr).toContain('--rename');
    expect(await readFile(config, 'utf8')).toBe(previous);
    expect(existsSync(`${config}.bak`)).toBe(false);
  });

  it('with --rename adds the clashing server as github-2, keeps everything else, and keeps the old file as .bak', async () => {
    const run = await runImport(CLAUDE, '--rename', '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out).toMatchObject({
      written: true,
      clashes: [{ name: 'github', renamedTo: 'github-2' }],
      identical: ['linear'],
      added: ['filesystem', 'weather', 'legacy-sse', 'streamable', 'paused', 'github-2'],
    });
    // Findings name the server as it is in Harbor's registry now.
    expect(out.secretsDetected).toContainEqual({ server: 'github-2', key: 'GITHUB_PERSONAL_ACCESS_TOKEN', where: 'env' });

    const file = await readJson(config);
    expect(file.$comment).toBe('kept by Harbor');
    expect(file.mcpServers.github).toEqual({ command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], myNote: 'mine' });
    expect(file.mcpServers.linear).toEqual({ url: 'https://mcp.linear.app/mcp', trusted: true });
    expect(file.mcpServers['github-2']).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] });
    expect(await readFile(`${config}.bak`, 'utf8')).toBe(previous);

    // Again: everything is already there, nothing is written.
    const written = await readFile(config, 'utf8');
    const again = await runImport(CLAUDE, '--rename', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(parseJsonOutput(again)).toMatchObject({ written: false, added: [], clashes: [] });
    expect(await readFile(config, 'utf8')).toBe(written);
  });

  it('--dry-run reports the plan and writes nothing', async () => {
    const run = await runImport(CLAUDE, '--rename', '--dry-run', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run)).toMatchObject({ dryRun: true, written: false, clashes: [{ name: 'github', renamedTo: 'github-2' }] });
    expect(await readFile(config, 'utf8')).toBe(previous);
    expect(existsSync(`${config}.bak`)).toBe(false);
  });

  it('human output lists added, identical, the clash with its fix, and secret names without values', async () => {
    const run = await runImport(CLAUDE);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('would add: filesystem, weather, legacy-sse, streamable, paused');
    expect(run.stdout).toContain('identical (already in the registry, skipped): linear');
    expect(run.stdout).toContain('clash: "github" exists with a different configuration (rename with --rename or edit the file)');
    expect(run.stdout).toContain('skipped "bad-url":\n  url: must be an http(s) URL');
    expect(run.stdout).toContain('legacy-sse: headers.Authorization');
    for (const value of SECRET_VALUES) expect(run.stdout + run.stderr).not.toContain(value);
    expect(await readFile(config, 'utf8')).toBe(previous);
  });

  it('refuses to touch an invalid registry: exit 2 with its problems, file unchanged', async () => {
    const broken = '{"mcpServers":{"x":{"command":"a","args":[1]}}}';
    await writeFile(config, broken);
    const run = await runImport(CLAUDE, '--json');
    expect(run.code).toBe(2);
    expect(parseJsonOutput(run)).toMatchObject({ error: { code: 'CONFIG_INVALID' } });
    expect(run.stderr).toContain('mcpServers.x.args[0]: expected string, got number');
    expect(await readFile(config, 'utf8')).toBe(broken);
  });
});

describe('harbor import (bad import files)', () => {
  const untouched = '{"mcpServers":{}}\n';
  beforeEach(async () => {
    await writeFile(config, untouched);
  });

  it.each([
    ['a file that is not JSON', join(CONFIGS, 'broken', 'not-json.json'), 'CONFIG_INVALID', 'is not valid JSON'],
    ['a Windows path with single backslashes', join(CONFIGS, 'broken', 'single-backslash.json'), 'CONFIG_INVALID', 'backslash must be doubled'],
    ['an unknown shape', join(CONFIGS, 'broken', 'unknown-shape.json'), 'CONFIG_INVALID', '"mcpServers" or "servers"'],
    ['a missing file', join(CONFIGS, 'does-not-exist.json'), 'CONFIG_IO', 'no such file'],
  ])('%s: exit 2, an error object, registry untouched', async (_what, file, code, text) => {
    const run = await runImport(file, '--json');
    expect(run.code).toBe(2);
    const out = parseJsonOutput(run) as { error: { code: string; message: string } };
    expect(out.error.code).toBe(code);
    expect(out.error.message).toContain(text);
    expect(out.error.message).toContain('Nothing was imported');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(config, 'utf8')).toBe(untouched);
  });

  it('a file whose every entry is broken: exit 2, problems listed, nothing written', async () => {
    const run = await runImport(join(CONFIGS, 'broken', 'all-invalid.json'), '--json');
    expect(run.code).toBe(2);
    expect(parseJsonOutput(run)).toMatchObject({ written: false, added: [], skipped: [{ name: 'one' }, { name: 'two' }] });
    expect(run.stderr).toContain('could be imported');
    expect(await readFile(config, 'utf8')).toBe(untouched);
  });

  it('a file with no servers: nothing to do, exit 0', async () => {
    const run = await runImport(join(CONFIGS, 'empty', 'claude_desktop_config.json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no servers in this file');
    expect(await readFile(config, 'utf8')).toBe(untouched);
  });
});

describe('harbor import (VS Code file)', () => {
  it('keeps ${input:…} references and lists the inputs and unresolved variables', async () => {
    await writeFile(config, '{"mcpServers":{}}\n');
    const run = await runImport(VSCODE, '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out).toMatchObject({
      format: 'vscode',
      written: true,
      added: ['perplexity', 'workspace-fs', 'github-remote', 'legacy', 'memory'],
      skipped: [{ name: 'wrong-type' }, { name: 'no-url' }],
      secretsDetected: [],
    });
    expect(out.inputsReferenced).toEqual([
      { id: 'perplexity-key', description: 'Perplexity API Key', password: true, defined: true, servers: ['perplexity'] },
      { id: 'gh-token', description: 'GitHub token', password: true, defined: true, servers: ['github-remote'] },
      { id: 'missing-input', defined: false, servers: ['memory'] },
    ]);
    expect(out.unresolvedVariables).toContainEqual({ server: 'workspace-fs', variable: '${workspaceFolder}', where: 'cwd' });
    const file = await readJson(config);
    expect(file.mcpServers.perplexity).toEqual({
      command: 'npx',
      args: ['-y', 'server-perplexity-ask'],
      env: { PERPLEXITY_API_KEY: '${input:perplexity-key}' },
    });
    expect(file.mcpServers.legacy).toEqual({ url: 'http://localhost:3001/sse', transport: 'sse' });
    expect(await readFile(`${config}.bak`, 'utf8')).toBe('{"mcpServers":{}}\n');
  });
});
