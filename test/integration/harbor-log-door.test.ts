/**
 * #28 §1: the app reads Harbor's own log through a host command (`harborLog.read`), filtered by
 * server and level with the code behind `harbor logs`. A real Host whose server dies at start
 * writes the log; the door reads it back.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, FIXTURES, NODE, type TestHost } from '../helpers/host';

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe("Harbor's log through the Host", () => {
  it('lists what the log holds about a failed server, filtered by server and level, with where the log is', async () => {
    test = await createTestHost({
      crash: { command: NODE, args: [join(FIXTURES, 'adversarial/crash-at-startup.mjs')], trusted: true },
      fine: { command: NODE, args: [join(FIXTURES, 'modern/feature-server.mjs')], trusted: true },
    });
    await test.host.servers.startAll();
    const all = test.host.harborLog.read();
    expect(all.path).toBe(join(test.dir, 'logs', 'harbor.log'));
    const crash = test.host.harborLog.read({ server: 'crash', level: 'warn' });
    expect(crash.entries.length).toBeGreaterThan(0);
    expect(crash.entries.every((e) => e.server === 'crash' && (e.level === 'warn' || e.level === 'error'))).toBe(true);
    expect(test.host.harborLog.read({ server: 'fine', level: 'error' }).entries).toEqual([]);
  });
});
