/**
 * A call that starts its server does the work its first call needs (building the argument
 * checker's engine) while the server starts, not after (#32 goal 4: the first call ≤ 20 ms beyond
 * the server's own start). Real timers and a real JsonSchemaValidator.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { JsonSchemaValidator } from '../../main/host/json-schema';
import { whileWaiting } from '../../main/host/services/while-waiting';

describe('whileWaiting', () => {
  it('builds the argument checker while the server starts: the engine exists before the start ends', async () => {
    const schemas = new JsonSchemaValidator();
    let enginesWhenReady = -1;
    // The server's start: a real process takes far longer than one turn of the event loop.
    const ready = delay(200).then(() => {
      enginesWhenReady = schemas.engineCount;
      return 'ready';
    });
    await expect(whileWaiting(ready, () => schemas.warm({ assertFormats: false }))).resolves.toBe('ready');
    expect(enginesWhenReady).toBe(1);
    // The first check then takes the warmed engine instead of building one.
    expect(schemas.prepare({ type: 'object', properties: { text: { type: 'string' } } }, { assertFormats: false })({ text: 1 }).valid).toBe(false);
    expect(schemas.engineCount).toBe(1);
  });

  it('a failed start is the caller’s failure, and a failure of the work is not', async () => {
    await expect(whileWaiting(Promise.reject(new Error('the server exited')), () => undefined)).rejects.toThrow('the server exited');
    await expect(
      whileWaiting(Promise.resolve(7), () => {
        throw new Error('no engine');
      }),
    ).resolves.toBe(7);
  });
});
