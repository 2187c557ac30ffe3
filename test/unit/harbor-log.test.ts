import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { HarborLog } from '../../main/host/log/harbor-log';
import { parseLogLine } from '../../main/host/log/log-entry';
import { readLog } from '../../main/host/log/log-reader';
import { disposeAfterTest } from '../helpers/dispose-after-test';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-log-'));
  dirs.push(dir);
  return join(dir, 'logs');
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function lines(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'harbor.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("Harbor's own log", () => {
  it('writes one JSON object per line: time, level, area, server, message, code, and the error', () => {
    const dir = tempDir();
    const log = disposeAfterTest(new HarborLog({ dir }));
    log.warn({ area: 'servers', server: 'notes', message: 'list refresh failed', error: new HarborError('TIMEOUT', 'tools/list took too long', 'stderr tail') });
    log.error({ area: 'chat', message: 'a turn failed', error: new TypeError('x is not a function') });
    log.info({ area: 'host', message: 'started', fields: { servers: 3 } });
    const [refresh, turn, started] = lines(dir);
    expect(refresh).toEqual({ time: expect.any(String), level: 'warn', area: 'servers', server: 'notes', code: 'TIMEOUT', message: 'list refresh failed', error: { message: 'tools/list took too long', detail: 'stderr tail' } });
    // An error Harbor does not know is INTERNAL, with its own message and stack kept for the log.
    expect(turn).toMatchObject({ level: 'error', code: 'INTERNAL', error: { name: 'TypeError', message: 'x is not a function', stack: expect.stringContaining('TypeError') } });
    expect(started).toMatchObject({ level: 'info', servers: 3 });
    expect(Date.parse(String(refresh!.time))).toBeGreaterThan(Date.now() - 60_000);
    for (const line of readFileSync(join(dir, 'harbor.log'), 'utf8').trim().split('\n')) expect(parseLogLine(line)).toBeDefined();
  });

  it('masks secrets with the redactor before anything reaches the disk, and is owner-only', () => {
    const dir = tempDir();
    const log = disposeAfterTest(new HarborLog({ dir, redact: (text) => text.replaceAll('hunter2', '••••') }));
    log.error({ area: 'auth', message: 'token hunter2 refused', error: new Error('bad hunter2') });
    const text = readFileSync(join(dir, 'harbor.log'), 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('token •••• refused');
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, 'harbor.log')).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it('a Host that logs nothing creates no folder', () => {
    const dir = tempDir();
    disposeAfterTest(new HarborLog({ dir }));
    expect(() => statSync(dir)).toThrow();
  });

  it('rotates by size, keeping a few files, and readLog reads them oldest first', () => {
    const dir = tempDir();
    const log = disposeAfterTest(new HarborLog({ dir, maxBytes: 2_000, keep: 2 }));
    for (let i = 0; i < 60; i++) log.info({ area: 'test', message: `entry ${i} ${'x'.repeat(40)}` });
    expect(readdirSync(dir).sort()).toEqual(['harbor.1.log', 'harbor.2.log', 'harbor.log']);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(2_000);
    const { entries } = readLog(join(dir, 'harbor.log'), {}, 2);
    const numbers = entries.map((e) => Number(/entry (\d+)/.exec(e.message)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(59);
    expect(numbers[0]).toBeGreaterThan(0); // the oldest fell off
  });

  it('a log it cannot write says so once, and never throws at the caller', () => {
    const base = tempDir();
    writeFileSync(join(base, '..', 'blocker'), '');
    const failures: unknown[] = [];
    const log = disposeAfterTest(new HarborLog({ dir: join(base, '..', 'blocker', 'logs'), onWriteFailure: (e) => failures.push(e) }));
    expect(() => {
      log.error({ area: 'x', message: 'one' });
      log.error({ area: 'x', message: 'two' });
    }).not.toThrow();
    expect(failures).toHaveLength(1);
  });

  it('readLog filters by server, lowest level and age, and counts lines that are not entries', () => {
    const dir = tempDir();
    const log = disposeAfterTest(new HarborLog({ dir, level: 'debug' }));
    log.write('debug', { area: 'a', server: 's1', message: 'd' });
    log.write('warn', { area: 'a', server: 's1', message: 'w' });
    log.write('error', { area: 'a', server: 's2', message: 'e' });
    writeFileSync(join(dir, 'harbor.log'), `${readFileSync(join(dir, 'harbor.log'), 'utf8')}{"torn":`, 'utf8');
    const path = join(dir, 'harbor.log');
    expect(readLog(path, { server: 's1' }).entries.map((e) => e.message)).toEqual(['d', 'w']);
    expect(readLog(path, { level: 'warn' }).entries.map((e) => e.message)).toEqual(['w', 'e']);
    expect(readLog(path, { since: Date.now() + 60_000 }).entries).toEqual([]);
    // A torn last line is not yet a line: not counted, and following starts before it.
    const read = readLog(path, {});
    expect(read.unreadable).toBe(0);
    expect(read.offset).toBe(readFileSync(path).length - Buffer.byteLength('{"torn":'));
  });
});
