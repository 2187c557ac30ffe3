/**
 * Harbor's data folder is its owner's alone: after real use of the CLI and browser mode (and of
 * the app's own file writers), the folder is 0700 and every file in it — the SQLite databases'
 * -wal and -shm included — is 0600. Modes are POSIX: skipped on Windows.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RotatingLog } from '../../main/shell/log';
import { ShellSettingsStore } from '../../main/shell/settings';
import { saveWindowState } from '../../main/shell/window-state';
import { readUrlLine, stopProcess } from '../e2e/harbor-process';
import { CLI, runCli } from '../helpers/cli';
import { FEATURE_SERVER, NODE } from '../helpers/host';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** Every folder and file under `dir` (the folder itself included) with its permission bits, as 'path: 0600'. */
function modes(dir: string): string[] {
  const out = [`.: 0${(lstatSync(dir).mode & 0o777).toString(8)}`];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      out.push(`${relative(dir, path)}: 0${(lstatSync(path).mode & 0o777).toString(8)}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

function expectAllPrivate(dir: string): void {
  const listed = modes(dir);
  const open = listed.filter((line) => {
    const isFolder = line.startsWith('.:') || lstatSync(join(dir, line.slice(0, line.lastIndexOf(':')))).isDirectory();
    return !line.endsWith(isFolder ? ': 0700' : ': 0600');
  });
  expect(open, `not private, of:\n${listed.join('\n')}`).toEqual([]);
}

/** One request over browser mode's WebSocket, as the renderer sends it. */
async function send(socket: WebSocket, id: number, command: string, payload: unknown = {}): Promise<{ ok: boolean }> {
  const answer = new Promise<{ ok: boolean }>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean } };
      if (frame.id !== id || !frame.result) return;
      socket.off('message', onMessage);
      resolve(frame.result);
    };
    socket.on('message', onMessage);
  });
  socket.send(JSON.stringify({ id, command, payload }));
  return answer;
}

describe.skipIf(process.platform === 'win32')('the data folder is private', () => {
  it('the CLI and browser mode create it 0700 and every file in it 0600, the SQLite -wal and -shm too', async () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-private-'));
    // Not there yet, nor its parent: Harbor creates both.
    const data = join(root, 'fresh', 'Harbor');
    const g = ['--config', join(data, 'harbor.json'), '--data-dir', data];
    const importFile = join(root, 'claude_desktop_config.json');
    writeFileSync(importFile, JSON.stringify({ mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER] } } }));

    expect((await runCli([...g, 'import', importFile])).code).toBe(0);
    expect((await runCli([...g, 'servers', '--yes'])).code).toBe(0);
    expect((await runCli([...g, 'consent', 'grant', 'feature', 'echo', '--always'])).code).toBe(0);
    expect((await runCli([...g, 'call', 'feature', 'echo', '--args', '{"text":"hi"}', '--yes'])).code).toBe(0);

    const web = spawn(NODE, [CLI, ...g, 'web', '--port', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const url = new URL(await readUrlLine(web));
      const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
      const socket = new WebSocket(`ws://${url.host}/ws?token=${token}`, { origin: url.origin });
      await once(socket, 'open');
      // Opens conversations.db; edits the registry (harbor.json.bak); reads consent.db.
      expect(await send(socket, 1, 'conversations.list')).toMatchObject({ ok: true });
      expect(await send(socket, 2, 'servers.add', { name: 'second', config: { command: NODE, args: [FEATURE_SERVER] } })).toMatchObject({ ok: true });
      expect(await send(socket, 3, 'consent.list')).toMatchObject({ ok: true });
      socket.close();
      // While browser mode runs, both databases are open in WAL mode: their -wal and -shm exist.
      for (const db of ['consent.db', 'conversations.db']) {
        for (const suffix of ['', '-wal', '-shm']) expect(existsSync(join(data, `${db}${suffix}`)), `${db}${suffix}`).toBe(true);
      }
      expect(existsSync(join(data, 'harbor.json.bak'))).toBe(true);
      expect(existsSync(join(data, 'era-cache.json'))).toBe(true);
      expectAllPrivate(data);
      expect(lstatSync(join(root, 'fresh')).mode & 0o777).toBe(0o700);
    } finally {
      await stopProcess(web);
    }
    expectAllPrivate(data);
  }, 120_000);

  it('a folder an older Harbor left readable by others is tightened, owners keep their bits', async () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-private-'));
    const data = join(root, 'Harbor');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    const config = join(data, 'harbor.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER] } } }), { mode: 0o644 });
    writeFileSync(join(data, 'era-cache.json'), '{}\n', { mode: 0o644 });
    writeFileSync(join(data, 'tool.sh'), '#!/bin/sh\n', { mode: 0o755 });
    chmodSync(join(data, 'tool.sh'), 0o755);
    const first = await runCli(['--config', config, '--data-dir', data, 'consent', 'grant', 'feature', 'echo', '--always']);
    expect(first.code).toBe(0);
    // consent.db was made by an older Harbor 0644: the next open tightens it and what SQLite makes beside it.
    chmodSync(join(data, 'consent.db'), 0o644);
    expect((await runCli(['--config', config, '--data-dir', data, 'call', 'feature', 'echo', '--args', '{"text":"hi"}', '--yes'])).code).toBe(0);
    expect(modes(data)).toEqual(
      expect.arrayContaining(['.: 0700', 'harbor.json: 0600', 'era-cache.json: 0600', 'consent.db: 0600', 'tool.sh: 0700']),
    );
  }, 60_000);

  it("the app's own files (log, window state, settings) are created private too", async () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-private-'));
    const userData = join(root, 'config', 'Harbor');
    const log = new RotatingLog({ dir: join(userData, 'logs'), maxBytes: 200, keep: 2 });
    for (let i = 0; i < 10; i++) log.info(`line ${i} of a log that rotates`);
    saveWindowState(join(userData, 'window-state.json'), { x: 0, y: 0, width: 800, height: 600, maximized: false });
    const settings = new ShellSettingsStore(join(userData, 'settings.json'), () => undefined);
    await settings.update({ autoUpdate: false });
    expect(existsSync(join(userData, 'logs', 'harbor.1.log'))).toBe(true);
    expectAllPrivate(join(root, 'config'));
  });
});
