import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../preload/contract';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker } from '../fixtures/proc';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, FIXTURES, NODE, REPO, createTestHost, waitFor, type TestHost } from '../helpers/host';

const ADVERSARIAL = join(FIXTURES, 'adversarial');
const markers: string[] = [];
let current: TestHost | undefined;

afterEach(async () => {
  await current?.dispose();
  current = undefined;
  // Belt and braces: a failing test must not leave processes for the next one.
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
});

function marked(label: string): string {
  const marker = uniqueMarker(label);
  markers.push(marker);
  return marker;
}

describe('Host lifecycle with real processes', () => {
  it('restarts a crashed server with backoff and becomes ready again', async () => {
    const marker = marked('crash');
    current = await createTestHost(
      { crashy: { command: NODE, args: [join(ADVERSARIAL, 'crash-on-call.mjs'), '--crash-on=1'], env: { HARBOR_SERVER_MARKER: marker } } },
      { restart: { baseMs: 200, maxMs: 400, maxAttempts: 3, jitter: 0 } },
    );
    const states: ConnectionState[] = [];
    disposeAfterTest(current.host.events.onEvent('servers.changed', (payload) => {
      if (payload.reason === 'state' && payload.summary) states.push(payload.summary.state);
    }));
    await current.host.servers.startAll();
    expect(current.host.servers.get('crashy').state.kind).toBe('ready');
    const error = await current.call('crashy', 'work', {}).then(() => undefined, (e: unknown) => e as Error & { code?: string; detail?: string });
    expect(error?.code).toBe('CONNECTION_CLOSED');
    // The cause travels with the error: how the process ended and what it said last.
    expect(error?.message).toMatch(/exited with code 1/);
    expect(error?.detail).toMatch(/about to crash/);
    await waitFor(() => states.some((s) => s.kind === 'restarting'), 'restarting state');
    const restarting = states.find((s) => s.kind === 'restarting');
    expect(restarting).toMatchObject({ kind: 'restarting', attempt: 1, maxAttempts: 3 });
    await waitFor(() => current!.host.servers.get('crashy').state.kind === 'ready', 'ready again after restart');
    // Ready again, the dead process's last words stay with the state, beside the restart.
    expect(restarting).toMatchObject({ stderrTail: expect.stringMatching(/about to crash \(call 1\)/) });
    expect(current.host.servers.get('crashy').state).toMatchObject({
      kind: 'ready',
      recovered: { exit: 'exited with code 1', stderrTail: expect.stringMatching(/about to crash \(call 1\)/), message: expect.stringMatching(/exited with code 1/) },
    });
    // A stop by the person forgets it: the next start is a fresh one.
    await current.host.servers.restart('crashy');
    expect(current.host.servers.get('crashy').state).toEqual({ kind: 'ready' });
  });

  it('gives up after the last attempt with the stderr tail, without a hot loop', async () => {
    const marker = marked('crash-loop');
    // A server that is fine at first, then crashes at once on every restart (the flag file exists).
    const dir = mkdtempSync(join(tmpdir(), 'harbor-crash-'));
    const script = join(dir, 'flaky.mjs');
    writeFileSync(
      script,
      `import { existsSync, writeFileSync } from 'node:fs';
       const flag = ${JSON.stringify(join(dir, 'started'))};
       if (existsSync(flag)) { process.stderr.write('fatal: cannot start twice\\n'); process.exit(3); }
       writeFileSync(flag, '1');
       await import(${JSON.stringify(join(ADVERSARIAL, 'crash-on-call.mjs'))});`,
    );
    try {
      current = await createTestHost(
        { flaky: { command: NODE, args: [script, '--crash-on=1'], env: { HARBOR_SERVER_MARKER: marker } } },
        { restart: { baseMs: 150, maxMs: 300, maxAttempts: 2, jitter: 0 } },
      );
      const states: string[] = [];
      disposeAfterTest(current.host.events.onEvent('servers.changed', (payload) => {
        if (payload.reason === 'state' && payload.summary) states.push(payload.summary.state.kind);
      }));
      await current.host.servers.startAll();
      await current.call('flaky', 'work', {}).catch(() => undefined);
      await waitFor(() => current!.host.servers.get('flaky').state.kind === 'error', 'error after the last restart', 15_000);
      const state = current.host.servers.get('flaky').state;
      expect(state).toMatchObject({ kind: 'error' });
      if (state.kind === 'error') expect(state.stderrTail).toMatch(/cannot start twice/);
      // Two restart attempts, each announced, then the error: no hot loop.
      expect(states.filter((s) => s === 'restarting')).toHaveLength(2);
      expect(states.filter((s) => s === 'starting').length).toBeLessThanOrEqual(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no process behind after dispose, stubborn servers and sh wrappers included', async () => {
    const marker = marked('dispose');
    const env = { HARBOR_SERVER_MARKER: marker };
    current = await createTestHost(
      {
        polite: { command: NODE, args: [FEATURE_SERVER], env },
        stubborn: { command: NODE, args: [join(ADVERSARIAL, 'stubborn.mjs')], env },
        wrapped: { command: 'sh', args: ['-c', `"${NODE}" "${join(ADVERSARIAL, 'stubborn.mjs')}"`], env },
      },
      { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } },
    );
    await current.host.servers.startAll();
    expect(current.host.servers.list().map((s) => s.state.kind)).toEqual(['ready', 'ready', 'ready']);
    // Each stubborn server has a grandchild: at least 3 servers + 2 grandchildren + 1 sh.
    expect(findMarkedProcesses(marker).length).toBeGreaterThanOrEqual(6);
    const started = Date.now();
    await current.host.dispose();
    const took = Date.now() - started;
    current = undefined;
    expect(findMarkedProcesses(marker)).toEqual([]);
    // Servers stop in parallel: about one ladder (300 + 300 ms), not three.
    expect(took).toBeLessThan(3_000);
  });

  it('`harbor servers` exits having stopped every process it started', () => {
    const marker = marked('cli');
    const dir = mkdtempSync(join(tmpdir(), 'harbor-cli-'));
    try {
      const env = { HARBOR_SERVER_MARKER: marker };
      writeFileSync(
        join(dir, 'harbor.json'),
        JSON.stringify({
          mcpServers: {
            feature: { command: NODE, args: [FEATURE_SERVER], env },
            stubborn: { command: 'sh', args: ['-c', `"${NODE}" "${join(ADVERSARIAL, 'stubborn.mjs')}"`], env },
            broken: { command: NODE, args: [join(ADVERSARIAL, 'crash-at-startup.mjs')], env },
          },
        }),
      );
      const run = spawnSync(NODE, [join(REPO, 'out/main/cli.js'), '--config', join(dir, 'harbor.json'), '--data-dir', dir, '--json', 'servers', '--yes'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; state: string; error?: { stderrTail: string } });
      expect(lines.map((l) => [l.name, l.state])).toEqual([
        ['feature', 'ready'],
        ['stubborn', 'ready'],
        ['broken', 'error'],
      ]);
      expect(lines[2]?.error?.stderrTail).toMatch(/fatal: missing config/);
      expect(run.status).toBe(3);
      expect(findMarkedProcesses(marker)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
