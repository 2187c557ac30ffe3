/**
 * Two Harbors open the same data folder at once (the app and a CLI, or two CLIs started together):
 * each of Harbor's databases, opened while another process holds the file's lock, waits for it
 * rather than failing with "database is locked". The other process here holds the lock the way a
 * Harbor creating or migrating the file does, for a fixed time, so the wait is certain.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openConversationDatabase } from '../../main/host/chat/conversations/database';
import { ConsentDatabase } from '../../main/host/consent/database';
import { TaskStore } from '../../main/host/tasks/store';
import { NODE } from '../helpers/host';

const HOLDER = join(__dirname, '../fixtures/sqlite/lock-holder.mjs');
const HOLD_MS = 400;

let dir: string | undefined;
let holderExit: Promise<number | null> | undefined;
afterEach(async () => {
  // The holder lets go on its own; its folder goes only after it has (a failed open does not wait).
  await holderExit;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  holderExit = undefined;
});

/** Resolves once another process holds `file`'s exclusive lock; `exited` once it let go. */
async function holdLock(file: string): Promise<{ exited: Promise<number | null> }> {
  const child = spawn(NODE, [HOLDER, file, String(HOLD_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  holderExit = exited;
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}) before taking the lock`)));
  });
  return { exited };
}

const OPENERS: Record<string, (path: string) => { dispose(): void }> = {
  'conversations.db': (path) => {
    const db = openConversationDatabase(path, () => 0);
    return { dispose: () => db.close() };
  },
  'consent.db': (path) => new ConsentDatabase(path),
  'tasks.db': (path) => new TaskStore(path),
};

describe('a database another process has locked', () => {
  for (const [name, open] of Object.entries(OPENERS)) {
    it(`${name}: a new file waits for the lock, then opens`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'harbor-busy-open-'));
      const path = join(dir, name);
      const holder = await holdLock(path);
      const started = Date.now();
      const db = open(path);
      const waited = Date.now() - started;
      db.dispose();
      expect(await holder.exited).toBe(0);
      // It waited for the holder to let go (not failed at once, not skipped the lock).
      expect(waited).toBeGreaterThan(HOLD_MS / 4);
    });
  }
});
