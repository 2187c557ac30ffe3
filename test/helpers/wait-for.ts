/**
 * The one way a test waits for a condition: `waitFor(check, what)` resolves as soon as `check` holds
 * (checked at once, then every 20 ms; it may be async), and otherwise fails after `timeoutMs` with
 * "Timed out after N ms waiting for <what>", so a failure says what never happened. Where an event
 * says it instead, await the event (`events.once`, a promise the code under test returns); where
 * time itself is the subject, use fake timers. Never a bare sleep.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
