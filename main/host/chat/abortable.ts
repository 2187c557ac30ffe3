import { HarborError } from '../errors';

/**
 * Settles with the signal even if the call is stuck somewhere that does not listen (a consent
 * dialog, a browser sign-in). `stopped` makes the error an abort rejects with.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, stopped: () => Error = () => new HarborError('CANCELLED', 'Stopped.')): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined); // no one wants its outcome any more: the caller gets `stopped()`
    return Promise.reject(stopped());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined); // no one wants its outcome any more: the caller gets `stopped()`
      reject(stopped());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
