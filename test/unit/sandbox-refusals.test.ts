import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RefusalBook } from '../../main/host/sandbox/refusal-book';
import { describeRefusal, refusalFromStderr, refusalFromViolation, type RefusalContext } from '../../main/host/sandbox/refusals';

const existing = mkdtempSync(join(tmpdir(), 'harbor-refusals-'));
afterAll(() => rmSync(existing, { recursive: true, force: true }));

const context: RefusalContext = {
  home: '/home/ann',
  alwaysHidden: ['/home/ann/.config/Harbor', '/home/ann/.ssh'],
  personHidden: ['/home/ann/work/secrets'],
  allowWrite: ['/tmp/harbor-sandbox-abc'],
};

describe("the runtime's violation lines", () => {
  it('a host missing from the allow list is offered; a port other than 80/443 is kept', () => {
    expect(refusalFromViolation('deny network-outbound example.com:443 (host is not on the allow list)', context)).toEqual({
      kind: 'network',
      target: 'example.com:443',
      change: { kind: 'allowDomain', domain: 'example.com' },
    });
    expect(refusalFromViolation('deny network-outbound 127.0.0.1:8123 (host is not on the allow list)', context)?.change).toEqual({ kind: 'allowDomain', domain: '127.0.0.1:8123' });
  });

  it('a name that resolves to a loopback or private address is not offered (listing it would not help)', () => {
    expect(refusalFromViolation('deny network-outbound sneaky.example:80 (resolved to a loopback address)', context)).toEqual({ kind: 'network', target: 'sneaky.example:80' });
  });

  it('a write outside the allowed folders offers its folder; a file right in the home folder is offered alone', () => {
    expect(refusalFromViolation('deny openat /srv/out/report.txt', context)).toEqual({ kind: 'write', target: '/srv/out/report.txt', change: { kind: 'allowWrite', path: '/srv/out' } });
    expect(refusalFromViolation('deny openat /home/ann/.bashrc', context)?.change).toEqual({ kind: 'allowWrite', path: '/home/ann/.bashrc' });
  });

  it("the Linux monitor's attempts inside the server's own writable folders are not refusals", () => {
    expect(refusalFromViolation('deny openat /tmp/harbor-sandbox-abc/npm-cache/_npx/x/package.json', context)).toBeUndefined();
    // Its stderr saying the file system is read-only there is (a file the runtime protects).
    expect(refusalFromStderr("EROFS: read-only file system, open '/tmp/harbor-sandbox-abc/.git/hooks/pre-commit'", context)).toEqual({
      kind: 'write',
      target: '/tmp/harbor-sandbox-abc/.git/hooks/pre-commit',
    });
  });

  it("mkdir -p walking existing parents is not a refusal; a write into a hidden folder is never offered", () => {
    expect(refusalFromViolation(`deny mkdir ${existing}`, context)).toBeUndefined();
    expect(refusalFromViolation('deny openat /home/ann/.ssh/authorized_keys', context)).toEqual({ kind: 'write', target: '/home/ann/.ssh/authorized_keys' });
  });

  it("macOS's Seatbelt lines are read the same way", () => {
    expect(refusalFromViolation('node(4242) deny(1) file-write-create /Users/ann/out/x.txt', context)).toMatchObject({ kind: 'write', change: { kind: 'allowWrite', path: '/Users/ann/out' } });
    expect(refusalFromViolation('node(4242) deny(1) file-read-data /home/ann/work/secrets/a', context)).toEqual({
      kind: 'read',
      target: '/home/ann/work/secrets/a',
      change: { kind: 'stopHiding', path: '/home/ann/work/secrets' },
    });
  });

  it('anything else is not about the sandbox', () => {
    expect(refusalFromViolation('something unrelated', context)).toBeUndefined();
  });
});

describe("the server's stderr", () => {
  it('a write to the read-only file system (Node, Python, coreutils)', () => {
    expect(refusalFromStderr("Error: EROFS: read-only file system, open '/srv/out/a b.txt'", context)).toMatchObject({ kind: 'write', target: '/srv/out/a b.txt' });
    expect(refusalFromStderr("OSError: [Errno 30] Read-only file system: '/srv/out/x'", context)).toMatchObject({ kind: 'write', target: '/srv/out/x' });
    expect(refusalFromStderr("touch: cannot touch '/srv/out/y': Read-only file system", context)).toMatchObject({ kind: 'write', target: '/srv/out/y' });
  });

  it('a read of a hidden folder, which looks empty, is a refusal only there', () => {
    expect(refusalFromStderr("ENOENT: no such file or directory, open '/home/ann/.ssh/id_ed25519'", context)).toEqual({ kind: 'read', target: '/home/ann/.ssh/id_ed25519' });
    expect(refusalFromStderr('cat: /home/ann/work/secrets/k: No such file or directory', context)).toMatchObject({ change: { kind: 'stopHiding', path: '/home/ann/work/secrets' } });
    expect(refusalFromStderr("ENOENT: no such file or directory, open '/srv/missing'", context)).toBeUndefined();
    expect(refusalFromStderr('listening on stdio', context)).toBeUndefined();
  });

  it('the log line says what was refused and how to allow it', () => {
    expect(describeRefusal({ kind: 'write', target: '/srv/out/x', change: { kind: 'allowWrite', path: '/srv/out' } })).toBe('[sandbox] refused writing to /srv/out/x (to allow it: allow writing to /srv/out)');
    expect(describeRefusal({ kind: 'read', target: '/home/ann/.ssh/id' })).toBe('[sandbox] refused reading /home/ann/.ssh/id');
    expect(describeRefusal({ kind: 'network', target: 'a.com:443', change: { kind: 'allowDomain', domain: 'a.com' } })).toBe('[sandbox] refused a connection to a.com:443 (to allow it: allow a.com)');
  });
});

describe('the refusal book', () => {
  it('counts repeats, announces each, and forgets what a change allowed', () => {
    const announced: string[] = [];
    let now = 1;
    const book = new RefusalBook((entry) => announced.push(`${entry.server} ${entry.target} ${entry.count}`), () => now++);
    const write = { kind: 'write', target: '/srv/x', change: { kind: 'allowWrite', path: '/srv' } } as const;
    book.record('a', write);
    book.record('a', write);
    book.record('b', { kind: 'read', target: '/home/ann/.ssh/id' });
    expect(announced).toEqual(['a /srv/x 1', 'a /srv/x 2', 'b /home/ann/.ssh/id 1']);
    expect(book.list('a')).toEqual([{ server: 'a', at: 2, kind: 'write', target: '/srv/x', count: 2, suggestion: { label: 'allow writing to /srv', change: { kind: 'allowWrite', path: '/srv' }, rule: '"sandbox": { "allowWrite": ["/srv"] }' } }]);
    expect(book.list().map((e) => e.server)).toEqual(['a', 'b']);
    book.settle('a', { kind: 'allowWrite', path: '/srv' });
    expect(book.list('a')).toEqual([]);
    book.forget('b');
    expect(book.list()).toEqual([]);
  });
});
