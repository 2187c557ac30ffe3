/**
 * A GUI launch finds `npx`/`uvx` through the login shell's PATH, which the Host resolves once, in
 * the background. Every stdio launch waits for it (the wait sits where every launch passes, not at
 * each front door). Real processes: a login shell that is slow to answer and adds a folder to
 * PATH, and a server command that exists only in that folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURE_SERVER, NODE, createTestHost, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
let dir: string | undefined;
const savedShell = process.env.SHELL;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  if (savedShell === undefined) delete process.env.SHELL;
  else process.env.SHELL = savedShell;
});

describe.runIf(process.platform !== 'win32')('the login-shell PATH', () => {
  it('is waited for by a launch right after start-up, and by a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-login-path-'));
    const bin = join(dir, 'login-bin');
    mkdirSync(bin);
    const shell = join(dir, 'slow-login-shell');
    // Called as `$SHELL -ilc SCRIPT`: a second late, then SCRIPT with the login-only folder on PATH.
    writeFileSync(shell, `#!/bin/sh\nsleep 1\nPATH="${bin}:$PATH"\nexport PATH\nexec /bin/sh -c "$2"\n`);
    chmodSync(shell, 0o755);
    const server = join(bin, 'harbor-login-path-server');
    writeFileSync(server, `#!/bin/sh\nexec "${NODE}" "${FEATURE_SERVER}"\n`);
    chmodSync(server, 0o755);
    process.env.SHELL = shell;

    current = await createTestHost({ viaLogin: { command: 'harbor-login-path-server' } }, { useLoginShellPath: true });
    await current.host.servers.startAll();
    expect(current.host.servers.get('viaLogin').state, JSON.stringify(current.host.servers.get('viaLogin').state)).toMatchObject({ kind: 'ready' });
    expect((await current.host.servers.restart('viaLogin')).state).toMatchObject({ kind: 'ready' });
  }, 30_000);
});
