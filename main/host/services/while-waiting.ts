/**
 * `pending`, with `work` done while it is pending: on the next turn of the event loop, so whatever
 * `pending` set going (a server's process spawning) is under way first. A call that starts its
 * server spends that start idle; work its first call would otherwise do after the start (loading
 * the argument checker, tens of milliseconds) overlaps it instead (#32: the first call ≤ 20 ms
 * beyond the server's own start). `pending` settles the result: its rejection is the caller's, and
 * a failure of `work` — an optimisation only — is left to whoever repeats the work later.
 */
export async function whileWaiting<T>(pending: Promise<T>, work: () => void): Promise<T> {
  const [result] = await Promise.all([pending, nextTurn(work)]);
  return result;
}

function nextTurn(work: () => void): Promise<void> {
  return new Promise((done) =>
    setImmediate(() => {
      try {
        work();
      } catch {
        // Nothing is lost: the work is repeated where it is needed (the first check builds its engine), and fails there with its own message.
      }
      done();
    }),
  );
}
