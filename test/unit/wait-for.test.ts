/** The tests' one condition wait (test/helpers/wait-for.ts): it resolves once the check holds, and says what never happened. */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for';

describe('waitFor', () => {
  it('resolves as soon as a check holds, sync or async', async () => {
    let calls = 0;
    await waitFor(() => ++calls >= 3, 'the third call');
    expect(calls).toBe(3);
    await waitFor(async () => true, 'an async check');
  });

  it('fails after the timeout naming what it waited for', async () => {
    await expect(waitFor(() => false, 'the server to be ready', 60)).rejects.toThrow('Timed out after 60 ms waiting for the server to be ready');
  });
});
