import { onTestFinished } from 'vitest';
import type { Disposable } from '../../main/host/lifecycle';

/**
 * Disposes `item` when the running test finishes, whether it passed or not (before the leak check
 * of test/setup/leak-check.ts looks); returns it. For objects a test creates and keeps to the end.
 */
export function disposeAfterTest<T extends Disposable>(item: T): T {
  onTestFinished(async () => {
    await item.dispose();
  });
  return item;
}
