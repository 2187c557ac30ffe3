/**
 * A burst of invalid harbor:// links (a page firing them in a loop) shows one notice and a couple
 * of log lines, not one message box and log line per link; after a quiet period the next refusal
 * is shown again, counting what was set aside. AddServerConsent as main/index.ts wires it, with a
 * clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { consentQuestions } from '../../main/host/consent/pending';
import { AddServerConsent } from '../../main/shell/add-server-consent';
import { DEFAULT_LINK_QUIET_MS } from '../../main/shell/link-refusals';

const link = (name: string, config: Record<string, unknown>) => `harbor://add-server?config=${Buffer.from(JSON.stringify({ name, config })).toString('base64url')}`;

function setup() {
  let clock = 1_000_000;
  const notices: string[] = [];
  const logs: string[] = [];
  const requests: ConsentRequest[] = [];
  // The Host's consent queue, as main/index.ts hands it over (host.consent.ask).
  const questions = consentQuestions({ emit: (event, payload) => (event === 'consent.request' ? requests.push(payload as ConsentRequest) : undefined) });
  const consent = new AddServerConsent({
    ask: (request, signal) => questions.ask(request, signal),
    serverExists: (name) => name === 'existing',
    addServer: () => Promise.resolve(),
    approveLaunch: () => undefined,
    notify: (title, message) => notices.push(`${title}: ${message}`),
    log: (line) => logs.push(line),
    now: () => clock,
  });
  return { consent, questions, notices, logs, requests, advance: (ms: number) => (clock += ms) };
}

describe('invalid harbor:// links are rate-limited', () => {
  it('a burst of 50 bad links: one notice, two log lines', async () => {
    const { consent, questions, notices, logs, advance } = setup();
    for (let i = 0; i < 50; i++) {
      expect(await consent.handle(i % 2 ? `harbor://add-server?config=!!${i}` : link('existing', { command: 'npx' }))).toBe('refused');
      advance(100);
    }
    expect(notices).toEqual(['Harbor did not add a server: A server named "existing" already exists. Nothing was changed; rename or remove that server first if you want this one.']);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatch(/keep arriving: further ones are set aside without a message until 10 s pass without one/);
    consent.dispose();
    questions.dispose();
  });

  it('after a quiet period the next refusal is shown again, saying how many were set aside', async () => {
    const { consent, questions, notices, advance } = setup();
    for (let i = 0; i < 5; i++) await consent.handle('harbor://add-server?config=!!');
    advance(DEFAULT_LINK_QUIET_MS - 1);
    await consent.handle('harbor://add-server?config=!!'); // still the burst: it extends the quiet period
    expect(notices).toHaveLength(1);
    advance(DEFAULT_LINK_QUIET_MS);
    await consent.handle(link('x', { command: 'npx', env: { NODE_OPTIONS: '--require /tmp/evil.js' } }));
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatch(/changes which code runs.* \(5 more harbor:\/\/ links were set aside before this one\)$/);
    consent.dispose();
    questions.dispose();
  });

  it('links arriving while one waits for an answer do not flood the log either; a valid link after the burst still asks', async () => {
    const { consent, questions, logs, requests, advance } = setup();
    const first = consent.handle(link('one', { command: 'npx' }));
    expect(requests).toHaveLength(1);
    for (let i = 0; i < 30; i++) expect(await consent.handle(link(`n${i}`, { command: 'npx' }))).toBe('busy');
    expect(logs.filter((l) => /ignored: another one is waiting/.test(l))).toHaveLength(1);
    expect(logs.length).toBeLessThanOrEqual(3);
    questions.answer(requests[0]!.id, 'deny');
    expect(await first).toBe('denied');
    advance(DEFAULT_LINK_QUIET_MS);
    void consent.handle(link('two', { command: 'npx' }));
    expect(requests).toHaveLength(2);
    consent.dispose();
    questions.dispose();
  });
});
