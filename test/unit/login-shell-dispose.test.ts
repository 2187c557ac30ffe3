/**
 * The login-shell probe is in the dispose tree (#30): a Harbor that stops while the login shell is
 * still being asked for its PATH kills the shell (and what its rc files started) at once, instead
 * of leaving it to its 3 s timeout after Harbor is gone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LoginShellPath } from '../../main/host/servers/stdio/login-shell-path';
import { processAlive } from '../../main/host/process-alive';
import { waitFor } from '../helpers/host';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

it.skipIf(process.platform === 'win32')('dispose during the probe kills the login shell and answers undefined', async () => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-login-shell-'));
  const pidFile = join(dir, 'pid');
  // A "login shell" whose rc files hang: it records its pid, then never prints PATH.
  const shell = join(dir, 'slow-shell');
  writeFileSync(shell, `#!/bin/sh\necho $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}\nexec sleep 60\n`, { mode: 0o755 });
  const probe = new LoginShellPath({ shell, timeoutMs: 60_000, platform: 'linux' });
  const answer = probe.resolve();
  await waitFor(() => existsSync(pidFile), 'the login shell to start', 30_000);
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  expect(processAlive(pid)).toBe(true);
  await probe.dispose();
  await expect(answer).resolves.toBeUndefined();
  expect(probe.failure).toMatch(/stopping/);
  await waitFor(() => !processAlive(pid), 'the login shell to be gone', 5_000);
});
