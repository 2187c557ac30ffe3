/**
 * The sandbox probe is in the dispose tree (#30): the runtime's dispose() aborts a probe still
 * running, and its process is killed at once instead of running on to the 15 s timeout. The probe
 * here is a real process that hangs (the sandbox's wrap gives its command line).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { processAlive } from '../../main/host/process-alive';
import { runProbe } from '../../main/host/sandbox/probe';
import { waitFor } from '../helpers/host';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

it.skipIf(process.platform === 'win32')('aborting a probe that hangs kills its process and answers why', async () => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-sandbox-probe-'));
  const pidFile = join(dir, 'pid');
  const manager = { wrapWithSandboxArgv: async () => ({ argv: ['/bin/sh', '-c', `echo $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile} && exec sleep 60`] }) };
  const stopping = new AbortController();
  const answer = runProbe(manager as never, stopping.signal);
  await waitFor(() => existsSync(pidFile), 'the probe to start', 30_000);
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  expect(processAlive(pid)).toBe(true);
  stopping.abort();
  await expect(answer).resolves.toBe('Harbor is stopping');
  await waitFor(() => !processAlive(pid), 'the probe to be gone', 5_000);
});
