/**
 * A list a server said had changed and that it then fails to send is never shown as fine: Harbor
 * keeps the last good list, marks it stale on the server's summary (which list, the server's
 * message, since when), writes it to its own log, tells `harbor watch`, retries, and clears the
 * mark once a refresh succeeds. Before, the failure was dropped (`.catch(() => undefined)`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { CLI, tempRegistry } from '../helpers/cli';
import { createTestHost, FIXTURES, NODE, waitFor } from '../helpers/host';

const FLAKY = join(FIXTURES, 'legacy/flaky-list.mjs');

describe('stale lists', () => {
  it('a failed tools/list after list_changed keeps the last good tools, marked stale and logged, until a refresh succeeds', async () => {
    const t = await createTestHost({ flaky: { command: NODE, args: [FLAKY] } });
    try {
      const changes: EventPayload<'servers.changed'>[] = [];
      const sub = t.host.events.onEvent('servers.changed', (e) => void (e.name === 'flaky' && changes.push(e)));
      await t.host.servers.connect('flaky');
      expect((await t.host.servers.list()).find((s) => s.name === 'flaky')?.stale).toBeUndefined();

      await t.call('flaky', 'break_list');
      await waitFor(() => changes.some((c) => c.reason === 'stale' && c.summary?.stale), 'the stale mark', 20_000);
      const marked = (await t.host.servers.list()).find((s) => s.name === 'flaky')!;
      expect(marked.state.kind).toBe('ready');
      expect(marked.stale).toMatchObject({ lists: ['tools'], message: expect.stringContaining('catalog store is unavailable') });
      expect(marked.stale!.since).toBeLessThanOrEqual(marked.stale!.failedAt);
      expect(marked.stale!.nextRetryAt).toBeGreaterThan(marked.stale!.failedAt);
      // The last good list is still there.
      expect(marked.counts.tools).toBe(2);
      const log = readFileSync(join(t.dir, 'logs', 'harbor.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(log).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warn', server: 'flaky', message: expect.stringContaining('list refresh failed (tools)') })]));

      await t.call('flaky', 'fix_list');
      await waitFor(() => changes.some((c) => c.reason === 'stale' && !c.summary?.stale), 'the mark to clear', 20_000);
      expect((await t.host.servers.list()).find((s) => s.name === 'flaky')?.stale).toBeUndefined();
      await sub.dispose();
    } finally {
      await t.dispose();
    }
  });

  it('harbor watch prints {"event":"error","what":"tools/list",…} once when a refresh fails, not again for each failed retry', async () => {
    const registry = tempRegistry({ flaky: { command: NODE, args: [FLAKY], trusted: true } });
    const logFile = join(registry.dir, 'logs', 'harbor.log');
    const failuresLogged = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('list refresh failed').length - 1 : 0);
    const child = spawn(NODE, [CLI, '--config', registry.config, '--data-dir', registry.dir, '--json', 'watch', 'flaky', '--call', 'break_list', '--yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
    });
    try {
      // The first failure, then the first retry (2 s later) failing the same way: both in the log.
      await waitFor(() => failuresLogged() >= 2, 'the refresh and its retry to fail', 45_000);
      await waitFor(() => lines.some((l) => l.event === 'error'), 'the error line', 10_000);
      expect(lines.filter((l) => l.event === 'error')).toEqual([
        expect.objectContaining({ event: 'error', what: 'tools/list', message: expect.stringContaining('catalog store is unavailable'), since: expect.any(String) }),
      ]);
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      registry.remove();
    }
  });
});
