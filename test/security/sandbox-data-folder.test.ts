/**
 * Security, issue #27 finding 1: a sandboxed server reads inside Harbor's data folder only what
 * belongs to it — its own bundle folder (`bundles/NAME/`), the example server's notes — whatever
 * its launch names. Real bubblewrap, real server processes (test/fixtures/servers/sandbox-probe.mjs
 * tries each read and says what happened), beside an unsandboxed control that reads every file
 * planted here, so a refusal below is the sandbox's and not a missing file.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, NODE, REPO, createTestHost, type TestHost } from '../helpers/host';
import { requireSandboxInCi } from '../helpers/sandbox';

const PROBE = join(FIXTURES, 'sandbox-probe.mjs');
const EXAMPLE_SERVER = join(REPO, 'resources/example-server/notes-server.mjs');

/** bubblewrap on Linux; macOS's Seatbelt is written, not run, on our machines. */
const problem = process.platform === 'linux' ? await requireSandboxInCi() : 'these tests run the sandbox on Linux (bubblewrap)';

let t: TestHost;
let data: string;
let work: string;

function plant(relative: string, text: string): string {
  const path = join(data, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  if (!existsSync(path)) writeFileSync(path, text);
  return path;
}

interface ReadOutcome {
  ok: boolean;
  text?: string;
  code?: string | null;
}

async function read(server: string, path: string): Promise<ReadOutcome> {
  const result = await t.call(server, 'read_file', { path });
  return (result.structuredContent ?? { ok: false, text: JSON.stringify(result.content) }) as ReadOutcome;
}

describe.skipIf(problem !== undefined)(`a sandboxed server and Harbor's data folder${problem ? ` (skipped: ${problem})` : ''}`, () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'harbor-sec-sandbox-'));
    // The registry is written before the Host starts: Harbor removes bundle folders no server refers to.
    t = await createTestHost((dir) => {
      data = dir;
      // Harbor's own files (present and future ones), another bundle's files, the server's own bundle. The
      // Host opens tasks.db only when tasks are used (#33.4), so it is planted too; the tests check it stays.
      plant('tasks.db', 'HARBOR-TASKS');
      plant('logs/harbor/server.log', 'HARBOR-LOG-LINE');
      plant('exports/conversation.json', 'HARBOR-EXPORT');
      plant('a-file-of-a-future-harbor.json', 'HARBOR-FUTURE');
      plant('bundles/other/1.0.0/secret.txt', 'ANOTHER-BUNDLE');
      plant('bundles/hello/1.0.0/server/own.txt', 'MY-OWN-BUNDLE-FILE');
      plant('notes/notes.json', '[]');
      // Links outside the data folder, in a folder the launch names, resolving into it.
      symlinkSync(data, join(work, 'data-link'));
      symlinkSync(join(data, 'tasks.db'), join(work, 'tasks-link.db'));
      const sandboxed = (args: string[], env: Record<string, string> = {}) => ({ command: NODE, args: [PROBE, ...args], env, sandbox: true });
      const installed = (name: string) => ({ from: 'bundle', bundle: name, version: '1.0.0', dir: join(data, 'bundles', name, '1.0.0') });
      // An installed bundle whose manifest says `${__dirname}/../../../tasks.db`, from its own bundle
      // folder (written out, not join()ed: the launch carries the `..` as it is).
      const hello = join(data, 'bundles/hello/1.0.0');
      return {
        // The control also keeps the other bundle's folder in use.
        control: { command: NODE, args: [PROBE], installed: installed('other') },
        state: sandboxed(['--state', join(data, 'tasks.db')]),
        logdir: sandboxed([], { LOGDIR: join(data, 'logs', 'harbor') }),
        hello: { ...sandboxed([join(hello, 'server/own.txt'), `${hello}/../../../tasks.db`], { EXPORTS: `${hello}/../../../exports` }), installed: installed('hello') },
        // A registry entry whose record of its bundle folder points at the data folder itself.
        forged: { ...sandboxed([]), installed: { ...installed('forged'), dir: join(data, 'bundles', '..') } },
        linked: sandboxed([join(work, 'data-link', 'tasks.db'), join(work, 'tasks-link.db')], { STATE: join(work, 'data-link') }),
        others: sandboxed([join(data, 'bundles/other/1.0.0/secret.txt'), join(data, 'notes'), join(data, 'a-file-of-a-future-harbor.json')]),
      };
    }, { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } });
    await t.host.servers.startAll();
    for (const name of ['control', 'state', 'logdir', 'hello', 'linked', 'others']) {
      expect(t.host.servers.get(name).state, `${name}: ${t.host.servers.stderrTail(name)}`).toEqual({ kind: 'ready' });
    }
  }, 120_000);

  afterAll(async () => {
    await t?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('the control, unsandboxed, reads every file planted here (so each refusal below is the sandbox)', async () => {
    expect(await read('control', join(data, 'tasks.db'))).toMatchObject({ ok: true, text: 'HARBOR-TASKS' });
    expect(await read('control', join(data, 'logs/harbor/server.log'))).toMatchObject({ ok: true, text: 'HARBOR-LOG-LINE' });
    expect(await read('control', join(work, 'data-link', 'exports/conversation.json'))).toMatchObject({ ok: true, text: 'HARBOR-EXPORT' });
    expect(await read('control', join(data, 'bundles/other/1.0.0/secret.txt'))).toMatchObject({ ok: true, text: 'ANOTHER-BUNDLE' });
    expect(await read('control', join(data, 'bundles/hello/1.0.0/server/own.txt'))).toMatchObject({ ok: true, text: 'MY-OWN-BUNDLE-FILE' });
  });

  it('launched with --state DATA/tasks.db, it cannot read tasks.db', async () => {
    expect(await read('state', join(data, 'tasks.db'))).toMatchObject({ ok: false });
    // Refused by the sandbox, not missing: the control still reads it.
    expect(await read('control', join(data, 'tasks.db'))).toMatchObject({ ok: true, text: 'HARBOR-TASKS' });
  });

  it('launched with LOGDIR=DATA/logs/…, it cannot read the logs', async () => {
    expect(await read('logdir', join(data, 'logs/harbor/server.log'))).toMatchObject({ ok: false });
  });

  it('a `..` path from its own bundle folder into the data folder reads nothing there; its own bundle folder stays readable', async () => {
    expect(await read('hello', join(data, 'tasks.db'))).toMatchObject({ ok: false });
    expect(await read('hello', `${data}/bundles/hello/1.0.0/../../../tasks.db`)).toMatchObject({ ok: false });
    expect(await read('hello', join(data, 'exports/conversation.json'))).toMatchObject({ ok: false });
    expect(await read('hello', join(data, 'bundles/hello/1.0.0/server/own.txt'))).toMatchObject({ ok: true, text: 'MY-OWN-BUNDLE-FILE' });
    // Another bundle's folder is not its own.
    expect(await read('hello', join(data, 'bundles/other/1.0.0/secret.txt'))).toMatchObject({ ok: false });
  });

  it('a registry entry whose bundle folder is recorded as the data folder does not start (the sandbox would give it nothing: sandbox-own-folders.test.ts)', () => {
    // installed.dir must be the bundles/NAME/VERSION it names (test/security/installed-dir.test.ts).
    expect(t.host.servers.get('forged').state).toMatchObject({ kind: 'error', code: 'CONFIG_INVALID', message: expect.stringContaining('installed.dir') });
  });

  it('a symlink outside the data folder that resolves into it reads nothing', async () => {
    expect(await read('linked', join(work, 'data-link', 'tasks.db'))).toMatchObject({ ok: false });
    expect(await read('linked', join(work, 'tasks-link.db'))).toMatchObject({ ok: false });
    expect(await read('linked', join(work, 'data-link', 'exports/conversation.json'))).toMatchObject({ ok: false });
  });

  it("another bundle's folder, the example server's notes and a file a future Harbor adds stay hidden even when named", async () => {
    expect(await read('others', join(data, 'bundles/other/1.0.0/secret.txt'))).toMatchObject({ ok: false });
    expect(await read('others', join(data, 'notes/notes.json'))).toMatchObject({ ok: false });
    expect(await read('others', join(data, 'a-file-of-a-future-harbor.json'))).toMatchObject({ ok: false });
  });
});

describe.skipIf(problem !== undefined)(`the example server, sandboxed${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('reads its own notes folder (no rule needed), and writes it with allowWrite', async () => {
    expect(existsSync(EXAMPLE_SERVER)).toBe(true);
    const example = { command: '${harbor:node}', args: ['${harbor:resources}/example-server/notes-server.mjs'], env: { HARBOR_NOTES_DIR: '${harbor:data}/notes' } };
    const host = await createTestHost(
      (dir) => {
        mkdirSync(join(dir, 'notes'));
        writeFileSync(join(dir, 'notes/notes.json'), JSON.stringify({ nextId: 2, notes: [{ id: '1', title: 'planted before the start', body: '', createdAt: new Date(0).toISOString() }] }));
        return { notes: { ...example, sandbox: true }, writer: { ...example, sandbox: { allowWrite: ['${harbor:data}/notes'] } } };
      },
      { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } },
    );
    try {
      await host.host.servers.startAll();
      for (const name of ['notes', 'writer']) expect(host.host.servers.get(name).state, host.host.servers.stderrTail(name)).toEqual({ kind: 'ready' });
      expect(JSON.stringify((await host.call('notes', 'list_notes', {})).content)).toContain('planted before the start');
      const added = await host.call('writer', 'add_note', { title: 'kept', body: 'in its own folder' });
      expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
      expect(JSON.stringify((await host.call('notes', 'list_notes', {})).content)).toContain('kept');
    } finally {
      await host.dispose();
    }
  }, 90_000);
});
