/**
 * Damaged data files, as a person meets them: the built CLI as real processes over a data folder
 * whose tasks.db, consent.db or conversations.db holds random bytes, another program's schema, a
 * newer Harbor's schema, or nothing. A command that does not need the file still works (`harbor
 * info`); the command that needs it exits 2 naming the file, what is wrong and how to recover.
 * Consent and conversation files are never replaced or repaired; a damaged tasks.db is set aside
 * (kept, renamed) and the person is told.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(async () => {
  await model?.close();
  registry?.remove();
  model = undefined;
  registry = undefined;
});

const ENV = { HARBOR_KEYCHAIN_SERVICE: 'harbor-faults-test' };

/** A registry (with the scripted model when one runs) and an empty data folder; the global flags for them. */
function setup(): { flags: string[]; data: string } {
  registry = tempRegistry({});
  if (model) writeFileSync(registry.config, JSON.stringify({ mcpServers: {}, model: model.modelConfig() }, null, 2));
  const data = join(registry.dir, 'data');
  return { flags: ['--config', registry.config, '--data-dir', data], data };
}

function harbor(flags: string[], ...args: string[]) {
  return runCli([...flags, ...args], { env: ENV });
}

/** Writes a SQLite file with these statements (another program's, or a newer Harbor's). */
function sqliteFile(path: string, sql: string): void {
  const db = new DatabaseSync(path);
  // In WAL mode like Harbor's own files, so that opening it changes no byte of it.
  db.exec('PRAGMA journal_mode = WAL;');
  db.exec(sql);
  db.close();
}

type Damage = 'random bytes' | 'foreign schema' | 'newer schema' | 'empty';

/** Puts a damaged `file` in place; the foreign and newer schemas are per file (see each). */
function damage(data: string, file: string, kind: Damage, foreign: string): Buffer {
  const path = join(data, file);
  for (const companion of ['', '-wal', '-shm']) rmSync(`${path}${companion}`, { force: true });
  switch (kind) {
    case 'random bytes':
      writeFileSync(path, randomBytes(16 * 1024));
      break;
    case 'empty':
      writeFileSync(path, '');
      break;
    case 'foreign schema':
      sqliteFile(path, foreign);
      break;
    case 'newer schema':
      sqliteFile(path, 'CREATE TABLE later (x); PRAGMA user_version = 99;');
      break;
  }
  return readFileSync(path);
}

async function prepare(): Promise<{ flags: string[]; data: string }> {
  const setupResult = setup();
  // The data folder as a first run leaves it.
  const info = await harbor(setupResult.flags, 'info');
  expect(info.code, info.stderr).toBe(0);
  return setupResult;
}

const KINDS: readonly Damage[] = ['random bytes', 'foreign schema', 'newer schema'];

describe('a damaged tasks.db', () => {
  const FOREIGN = 'CREATE TABLE tasks (server TEXT, task_id TEXT, note TEXT); INSERT INTO tasks VALUES (1, 2, 3);';

  for (const kind of ['random bytes', 'foreign schema'] as const) {
    it(`(${kind}) stops nothing: info works, and the task list is set aside, kept and announced`, async () => {
      const { flags, data } = await prepare();
      const bytes = damage(data, 'tasks.db', kind, FOREIGN);
      const info = await harbor(flags, 'info');
      expect(info.stderr).not.toMatch(/unexpected error/);
      expect(info.code, info.stderr).toBe(0);
      const tasks = await harbor(flags, 'tasks');
      expect(tasks.stderr).not.toMatch(/unexpected error/);
      expect(tasks.code, tasks.stderr).toBe(0);
      const aside = readdirSync(data).filter((name) => name.startsWith('tasks.db.damaged-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(data, aside[0]!)).equals(bytes)).toBe(true);
      expect(tasks.stderr).toContain(join(data, 'tasks.db'));
      expect(tasks.stderr).toContain(aside[0]!);
      expect(tasks.stderr).toMatch(/only the task list/i);
      // Once set aside, the next run is quiet.
      const again = await harbor(flags, 'tasks');
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/damaged/);
    });
  }

  it('(newer schema) is refused, never altered: exit 2 naming the file and the fix', async () => {
    const { flags, data } = await prepare();
    const bytes = damage(data, 'tasks.db', 'newer schema', FOREIGN);
    const info = await harbor(flags, 'info');
    expect(info.code, info.stderr).toBe(0);
    const tasks = await harbor(flags, 'tasks');
    expect(tasks.code, tasks.stderr).toBe(2);
    expect(tasks.stderr).toContain(join(data, 'tasks.db'));
    expect(tasks.stderr).toMatch(/newer Harbor/);
    expect(tasks.stderr).not.toMatch(/unexpected error/);
    expect(readFileSync(join(data, 'tasks.db')).equals(bytes)).toBe(true);
  });

  it('(empty) is an empty task list', async () => {
    const { flags, data } = await prepare();
    damage(data, 'tasks.db', 'empty', FOREIGN);
    const tasks = await harbor(flags, 'tasks');
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.stderr).not.toMatch(/damaged|error/);
  });
});

describe('a damaged consent.db', () => {
  const FOREIGN = 'CREATE TABLE something_else (x); PRAGMA user_version = 2;';

  for (const kind of KINDS) {
    it(`(${kind}) stops only what needs it: exit 2 naming the file and the fix, the file untouched`, async () => {
      const { flags, data } = await prepare();
      const bytes = damage(data, 'consent.db', kind, FOREIGN);
      const info = await harbor(flags, 'info');
      expect(info.stderr).not.toMatch(/unexpected error/);
      expect(info.code, info.stderr).toBe(0);
      const list = await harbor(flags, 'consent', 'list');
      expect(list.stderr).not.toMatch(/unexpected error/);
      expect(list.code, list.stderr).toBe(2);
      expect(list.stderr).toContain(join(data, 'consent.db'));
      expect(list.stderr).toMatch(kind === 'newer schema' ? /newer Harbor/ : /move it aside|Move .* aside/i);
      expect(readFileSync(join(data, 'consent.db')).equals(bytes)).toBe(true);
      expect(readdirSync(data).filter((name) => name.startsWith('consent.db.'))).toEqual([]);
    });
  }

  it('(empty) is a fresh list of decisions', async () => {
    const { flags, data } = await prepare();
    damage(data, 'consent.db', 'empty', FOREIGN);
    const list = await harbor(flags, 'consent', 'list');
    expect(list.code, list.stderr).toBe(0);
  });
});

describe('a damaged conversations.db', () => {
  const FOREIGN = 'CREATE TABLE conversations (id TEXT, note TEXT); PRAGMA user_version = 2;';

  for (const kind of KINDS) {
    it(`(${kind}) stops only the chat: exit 2 naming the file and the fix, the file untouched`, async () => {
      model = await startScriptedModel({ script: [{ text: 'hello' }] });
      const { flags, data } = await prepare();
      const bytes = damage(data, 'conversations.db', kind, FOREIGN);
      const info = await harbor(flags, 'info');
      expect(info.code, info.stderr).toBe(0);
      const chat = await harbor(flags, 'chat', 'hi');
      expect(chat.stderr).not.toMatch(/unexpected error/);
      expect(chat.code, chat.stderr).toBe(2);
      expect(chat.stderr).toContain(join(data, 'conversations.db'));
      expect(chat.stderr).toMatch(kind === 'newer schema' ? /newer Harbor/ : /aside/);
      expect(readFileSync(join(data, 'conversations.db')).equals(bytes)).toBe(true);
    });
  }

  it('(empty) holds a new conversation', async () => {
    model = await startScriptedModel({ script: [{ text: 'hello' }] });
    const { flags, data } = await prepare();
    damage(data, 'conversations.db', 'empty', FOREIGN);
    const chat = await harbor(flags, 'chat', 'hi');
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('hello');
  });
});
