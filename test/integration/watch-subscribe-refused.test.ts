/**
 * A resource subscription the server refuses is said where the person looks (issue 28): before,
 * `harbor watch` swallowed it (`.catch(() => undefined)`) and waited for updates that could never
 * come. Now the Host returns the refusal, writes it to Harbor's log with what was being done, and
 * `harbor watch` prints {"event":"error","what":"resources/subscribe",…}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { createTestHost, FIXTURES, NODE } from '../helpers/host';

const REFUSER = join(FIXTURES, 'legacy/refuses-subscribe.mjs');

const logLines = (dir: string) => {
  const file = join(dir, 'logs', 'harbor.log');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

describe('a refused resource subscription', () => {
  it('is returned by watchResources and written to the log with the URI', async () => {
    const t = await createTestHost({ refuser: { command: NODE, args: [REFUSER] } });
    const stop = new AbortController();
    try {
      const refused = await t.host.calls.watchResources('refuser', stop.signal);
      expect(refused).toEqual([{ uri: 'note://today', message: expect.stringContaining('subscription slots are full') }]);
      expect(logLines(t.dir)).toEqual(
        expect.arrayContaining([expect.objectContaining({ level: 'warn', server: 'refuser', message: 'subscribing to note://today failed', error: expect.objectContaining({ message: expect.stringContaining('subscription slots are full') }) })]),
      );
    } finally {
      stop.abort();
      await t.dispose();
    }
  });

  it('harbor watch prints it as an error line', async () => {
    const registry = tempRegistry({ refuser: { command: NODE, args: [REFUSER], trusted: true } });
    try {
      const run = await runCli(['--config', registry.config, '--data-dir', registry.dir, '--json', 'watch', 'refuser', '--seconds', '1', '--yes'], { timeoutMs: 60_000 });
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toEqual(expect.arrayContaining([{ event: 'error', what: 'resources/subscribe', uri: 'note://today', message: expect.stringContaining('subscription slots are full') }]));
    } finally {
      registry.remove();
    }
  });
});
