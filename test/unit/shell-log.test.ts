/** main/shell/log.ts: the app's log file — rotation by size, N kept, every line redacted. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../main/host/secrets/redactor';
import { mirrorConsole, RotatingLog } from '../../main/shell/log';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-shell-log-'));
  dirs.push(dir);
  return dir;
}

describe('RotatingLog', () => {
  it('creates the folder and appends timestamped, levelled lines', () => {
    const dir = join(tempDir(), 'nested', 'logs');
    const log = new RotatingLog({ dir, now: () => new Date('2026-01-02T03:04:05.000Z') });
    log.info('started');
    log.error('it broke', new Error('boom'));
    const text = readFileSync(join(dir, 'harbor.log'), 'utf8');
    expect(text.split('\n')[0]).toBe('2026-01-02T03:04:05.000Z INFO  started');
    expect(text).toContain('ERROR it broke — Error: boom');
  });

  it('rotates past the size cap and keeps only N old files', () => {
    const dir = tempDir();
    const log = new RotatingLog({ dir, maxBytes: 200, keep: 2 });
    for (let i = 0; i < 40; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['harbor.1.log', 'harbor.2.log', 'harbor.log']);
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).length).toBeLessThanOrEqual(200);
    // The newest line is in the current file, the one before it in harbor.1.log; the oldest are gone.
    expect(readFileSync(join(dir, 'harbor.log'), 'utf8')).toContain('line 39 ');
    const all = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
    expect(all).not.toContain('line 0 ');
  });

  it('continues an existing file after a restart, counting its size', () => {
    const dir = tempDir();
    new RotatingLog({ dir, maxBytes: 300 }).info('a'.repeat(250));
    new RotatingLog({ dir, maxBytes: 300 }).info('b'.repeat(100));
    expect(readFileSync(join(dir, 'harbor.1.log'), 'utf8')).toContain('a'.repeat(250));
    expect(readFileSync(join(dir, 'harbor.log'), 'utf8')).toContain('b'.repeat(100));
  });

  it('redacts secrets with the Host redactor, set after the first lines were written', () => {
    const dir = tempDir();
    const log = new RotatingLog({ dir });
    const redactor = new Redactor();
    redactor.add('ghp_SUPERSECRET123');
    log.setRedactor((text) => redactor.redact(text));
    log.warn('server said token=ghp_SUPERSECRET123 and Authorization: Bearer abc.def');
    log.error('failed', new Error('key ghp_SUPERSECRET123 rejected'));
    const text = readFileSync(join(dir, 'harbor.log'), 'utf8');
    expect(text).not.toContain('ghp_SUPERSECRET123');
    expect(text).not.toContain('abc.def');
    expect(text).toContain('***');
  });

  it('drops a line whose redaction throws instead of writing it raw', () => {
    const dir = tempDir();
    const log = new RotatingLog({
      dir,
      redact: () => {
        throw new Error('broken redactor');
      },
    });
    log.info('secret-value-here');
    const text = readFileSync(join(dir, 'harbor.log'), 'utf8');
    expect(text).not.toContain('secret-value-here');
    expect(text).toContain('could not be redacted');
  });

  it('never throws when the folder disappears', () => {
    const dir = tempDir();
    const log = new RotatingLog({ dir });
    rmSync(dir, { recursive: true, force: true });
    expect(() => log.info('still fine')).not.toThrow();
    expect(existsSync(join(dir, 'harbor.log'))).toBe(false);
  });
});

describe('mirrorConsole', () => {
  it('copies console.warn/error into the log and restores the console on dispose', () => {
    const dir = tempDir();
    const log = new RotatingLog({ dir });
    const seen: unknown[][] = [];
    const fakeConsole = { warn: (...args: unknown[]) => seen.push(['warn', ...args]), error: (...args: unknown[]) => seen.push(['error', ...args]) };
    const originalWarn = fakeConsole.warn;
    const mirror = mirrorConsole(fakeConsole, log);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    fakeConsole.warn('careful', { a: 1 });
    fakeConsole.error(new Error('bad'), circular);
    void mirror.dispose();
    expect(fakeConsole.warn).toBe(originalWarn);
    fakeConsole.warn('after');
    const text = readFileSync(join(dir, 'harbor.log'), 'utf8');
    expect(text).toContain('WARN  careful {"a":1}');
    expect(text).toContain('ERROR Error: bad [object Object]');
    expect(text).not.toContain('after');
    expect(seen.map((s) => s[0])).toEqual(['warn', 'error', 'warn']);
  });
});
