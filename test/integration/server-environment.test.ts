/**
 * What a stdio server finds around it when Harbor is started the way the README says, `npx harbor`
 * in the checkout: the person's PATH (not npm's node_modules/.bin folders, so `node` is not
 * Harbor's pinned Node) and the person's home folder (or the registry's "cwd"), not the folder
 * Harbor was started from. Real processes all the way: npx, the built CLI, a server reporting
 * its PATH, `which node` and its working folder.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO } from '../helpers/host';

const WHERE_AM_I = join(FIXTURES, 'where-am-i.mjs');

interface Where {
  path: string;
  node: string | null;
  cwd: string;
}

let home: string;
let config: string;

beforeAll(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'harbor-home-')));
  mkdirSync(join(home, 'projects'));
  config = join(home, 'harbor.json');
  const server = (extra: Record<string, unknown> = {}) => ({ command: '${harbor:node}', args: [WHERE_AM_I], ...extra });
  writeFileSync(config, JSON.stringify({ mcpServers: { plain: server(), inProjects: server({ cwd: '~/projects' }), nowhere: server({ cwd: '~/missing' }) } }));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** `npx harbor …` from the checkout, as a person runs it, with `home` as the home folder. */
function npxHarbor(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['harbor', '--config', config, '--data-dir', join(home, 'data'), ...args], {
      cwd: REPO,
      env: { ...process.env, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function where(server: string): Promise<Where> {
  const run = await npxHarbor(['--json', 'call', server, 'where', '--yes']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout.trim().split('\n')[0]!) as { structuredContent: Where }).structuredContent;
}

describe.runIf(process.platform !== 'win32')('a stdio server started through `npx harbor`', () => {
  it("gets the person's PATH without Harbor's tool folders, so `node` is not Harbor's Node", async () => {
    const found = await where('plain');
    const dirs = found.path.split(':');
    expect(dirs.filter((dir) => /node_modules\/\.bin\/?$|node-gyp-bin\/?$/.test(dir)), found.path).toEqual([]);
    expect(dirs.some((dir) => dir.startsWith(REPO)), found.path).toBe(false);
    if (found.node !== null) expect(realpathSync(found.node).startsWith(REPO), found.node).toBe(false);
  }, 60_000);

  it('starts in the home folder, or in the registry\'s "cwd" with ~ expanded', async () => {
    expect((await where('plain')).cwd).toBe(home);
    expect((await where('inProjects')).cwd).toBe(join(home, 'projects'));
  }, 60_000);

  it('says so when "cwd" names a folder that does not exist', async () => {
    const run = await npxHarbor(['call', 'nowhere', 'where', '--yes']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`its working directory "${join(home, 'missing')}" does not exist`);
  }, 60_000);
});
