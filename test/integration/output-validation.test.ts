import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { FEATURE_SERVER, FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';

const HOSTILE = join(FIXTURES, 'adversarial/hostile-output.mjs');

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

/** The longest the event loop went without running a 10 ms timer while `work` ran. */
async function longestStall<T>(work: Promise<T>): Promise<{ value: PromiseSettledResult<T>; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const [value] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { value, stallMs: Math.max(stallMs, performance.now() - last) };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: PromiseSettledResult<T> }> {
  const started = performance.now();
  const [value] = await Promise.allSettled([work()]);
  return { ms: performance.now() - started, value };
}

// The long-lived Host compiles schemas; a one-shot command interprets first and leaves patterns to Ajv on RE2.
describe.each(['compiled', 'interpreted'] as const)('structured results are validated in bounded time (%s schema checks)', (schemaChecks) => {
  it('a catastrophic outputSchema pattern neither freezes the host nor delays another server', async () => {
    current = await createTestHost({
      hostile: { command: NODE, args: [HOSTILE] },
      feature: { command: NODE, args: [FEATURE_SERVER] },
    }, { schemaChecks });
    // Both connected and their catalogs listed (the outputSchema is compiled from tools/list).
    await current.call('feature', 'echo', { text: 'warm up' });
    expect((await current.host.calls.catalog('hostile')).tools.map((t) => t.name)).toContain('redos');

    const t = current;
    const both = Promise.all([timed(() => t.call('hostile', 'redos', {})), timed(() => t.call('feature', 'echo', { text: 'meanwhile' }))]);
    const { value, stallMs } = await longestStall(both);
    if (value.status !== 'fulfilled') throw value.reason;
    const [redos, echo] = value.value;

    // The other server answered while the hostile result was being checked.
    expect(echo.value).toMatchObject({ status: 'fulfilled', value: { content: [{ type: 'text', text: 'meanwhile' }] } });
    expect(echo.ms).toBeLessThan(1_000);
    // "a"×27 + "!" does not match ^(a+)+$: the call fails, quickly, saying why.
    expect(redos.ms).toBeLessThan(2_000);
    expect(redos.value.status).toBe('rejected');
    const error = (redos.value as PromiseRejectedResult).reason as HarborError;
    expect(error).toBeInstanceOf(HarborError);
    expect(error.message).toMatch(/output schema|structured content/i);
    // And the host's event loop never stood still for long.
    expect(stallMs).toBeLessThan(500);
  }, 120_000);

  it('a structured result that matches its pattern still passes', async () => {
    current = await createTestHost({ hostile: { command: NODE, args: [HOSTILE, '--redos-word=aaaa'] } }, { schemaChecks });
    await expect(current.call('hostile', 'redos', {})).resolves.toMatchObject({ structuredContent: { word: 'aaaa' } });
  });
});
