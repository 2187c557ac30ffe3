/**
 * `work()`'s promise, with a synchronous throw from it coming back as a rejection — what an async
 * function gives its caller — without an async function's frame and promise around it. For the
 * steps every tool call takes (#32 goal 3), whose callers handle failures as rejections only.
 */
export function promiseOf<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
