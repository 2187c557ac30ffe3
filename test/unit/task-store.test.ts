/**
 * The tasks database: what Harbor keeps of each task (server, tool, status, message, result,
 * origin, answered keys) round-trips, unfinished tasks are found again, old finished ones are
 * forgotten, the file is owner-only, and a damaged row is DATA_CORRUPT naming the file and the fix.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../main/host/tasks/rows';
import { toView } from '../../main/host/tasks/rows';
import { TaskStore } from '../../main/host/tasks/store';
import { disposeAfterTest } from '../helpers/dispose-after-test';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function open(): { store: TaskStore; path: string } {
  dir = mkdtempSync(join(tmpdir(), 'harbor-task-store-'));
  const path = join(dir, 'tasks.db');
  return { store: disposeAfterTest(new TaskStore(path)), path };
}

const record = (extra: Partial<TaskRecord> = {}): TaskRecord => ({
  server: 'research',
  taskId: 'T1',
  tool: 'deep_dive',
  era: 'modern',
  status: 'working',
  createdAt: '2026-01-01T00:00:00Z',
  lastUpdatedAt: '2026-01-01T00:00:01Z',
  startedAt: 1_000,
  answeredKeys: [],
  cancelRequested: false,
  delivered: false,
  ...extra,
});

describe('TaskStore', () => {
  it('keeps every field, and tells a null ttl (no limit) from none given', () => {
    const { store } = open();
    const full = record({
      statusMessage: 'Reading',
      ttlMs: null,
      pollIntervalMs: 500,
      origin: { conversationId: 'c1', turnId: 't1', toolCallId: 'call-1' },
      answeredKeys: ['name'],
      result: { content: [{ type: 'text', text: 'done' }], structuredContent: { n: 1 } },
      error: { code: -32603, message: 'boom', data: { why: 'x' } },
      endedAt: 2_000,
      cancelRequested: true,
      delivered: true,
    });
    store.save(full);
    store.save(record({ taskId: 'T2', startedAt: 3_000 }));
    expect(store.get('research', 'T1')).toEqual(full);
    expect(store.get('research', 'T2')).toEqual(record({ taskId: 'T2', startedAt: 3_000 }));
    expect(store.get('research', 'T2')).not.toHaveProperty('ttlMs');
    expect(toView(full)).toMatchObject({ hasResult: true, cancelRequested: true });
    expect(toView(full)).not.toHaveProperty('answeredKeys');
    expect(store.list().map((r) => r.taskId)).toEqual(['T2', 'T1']);
    expect(store.list('other')).toEqual([]);
    expect(store.unfinished().map((r) => r.taskId)).toEqual(['T2']);
  });

  it('forgets the oldest finished tasks beyond what it keeps, never an unfinished one', () => {
    const { store } = open();
    for (let i = 0; i < 5; i += 1) store.save(record({ taskId: `done-${i}`, startedAt: i, endedAt: i + 1, status: 'completed' }));
    store.save(record({ taskId: 'running', startedAt: -1 }));
    store.prune(2);
    expect(store.list().map((r) => r.taskId)).toEqual(['done-4', 'done-3', 'running']);
  });

  it('is owner-only, and a damaged row is DATA_CORRUPT naming the file and the fix', () => {
    const { store, path } = open();
    store.save(record());
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o077).toBe(0);
    const db = new DatabaseSync(path);
    db.prepare("UPDATE tasks SET status = 'exploded', result = '{not json' WHERE task_id = 'T1'").run();
    db.close();
    expect(() => store.get('research', 'T1')).toThrow(expect.objectContaining({ code: 'DATA_CORRUPT', message: expect.stringContaining(`Delete ${path}`) }));
  });
});
