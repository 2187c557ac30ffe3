/**
 * Finding 12 (round three), the app's side: a server whose name or host is written in two scripts
 * ("harbor-nоtes" with a Cyrillic о, "https://gіthub.com/mcp" with a Cyrillic і) is marked
 * wherever the person sees it to decide — its summary (the card and row of the Servers page) and
 * every consent question the Host asks about it (a launch, a call, a harbor:// link), set in one
 * place (the consent queue) whoever asks. A plain name carries no mark. Real Host, real stdio server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { AddServerConsent } from '../../main/shell/add-server-consent';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FEATURE_SERVER, NODE, waitFor, type TestHost } from '../helpers/host';

const LOOKALIKE_NAME = 'harbor-n\u043etes'; // Cyrillic о
const LOOKALIKE_URL = 'https://g\u0456thub.com/mcp'; // Cyrillic і
const feature = { command: NODE, args: [FEATURE_SERVER] };

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

function requests(t: TestHost): ConsentRequest[] {
  const seen: ConsentRequest[] = [];
  disposeAfterTest(t.host.events.onEvent('consent.request', (request) => seen.push(request)));
  return seen;
}

describe('look-alike names and hosts are marked where the person decides', () => {
  it('the server summaries carry the mark (name, and host with its punycode); a plain name none', async () => {
    current = await createTestHost({ [LOOKALIKE_NAME]: { ...feature, enabled: false }, remote: { url: LOOKALIKE_URL, enabled: false }, plain: { ...feature, enabled: false } });
    const { host } = current;
    expect(host.servers.get(LOOKALIKE_NAME).lookalike).toEqual([expect.stringMatching(/the name "harbor-n.tes" mixes scripts \(.*Cyrillic.*\)/)]);
    expect(host.servers.get('remote').lookalike).toEqual([expect.stringContaining('the host g\u0456thub.com (xn--gthub-n2e.com) mixes scripts')]);
    expect(host.servers.get('plain').lookalike).toBeUndefined();
  });

  it('a launch question about a look-alike server says so; about a plain one it does not', async () => {
    current = await createTestHost({ [LOOKALIKE_NAME]: feature, plain: feature }, { interactiveConsent: true, approveLaunches: false });
    const { host } = current;
    const asked = requests(current);
    const lookalike = host.servers.start(LOOKALIKE_NAME);
    await waitFor(() => asked.length === 1, 'the launch question', 30_000);
    expect(asked[0]).toMatchObject({ kind: 'launch', server: LOOKALIKE_NAME, lookalike: [expect.stringContaining('mixes scripts')] });
    host.consent.respond(asked[0]!.id, 'deny');
    await lookalike;
    const plain = host.servers.start('plain');
    await waitFor(() => asked.length === 2, 'the second launch question', 30_000);
    expect(asked[1]).toMatchObject({ kind: 'launch', server: 'plain' });
    expect(asked[1]!.lookalike).toBeUndefined();
    host.consent.respond(asked[1]!.id, 'deny');
    await plain;
  });

  it('a harbor:// link proposing a look-alike server asks with the mark, and adds nothing when denied', async () => {
    current = await createTestHost({});
    const { host } = current;
    const asked = requests(current);
    const links = new AddServerConsent({
      ask: (request, signal) => host.consent.ask(request, signal),
      serverExists: (name) => host.servers.names().includes(name),
      addServer: (name, config) => host.registry.add(name, config),
      approveLaunch: (name) => host.servers.approveLaunch(name),
      notify: () => undefined,
    });
    const link = `harbor://add-server?config=${Buffer.from(JSON.stringify({ name: 'remote-notes', config: { url: LOOKALIKE_URL } })).toString('base64url')}`;
    const outcome = links.handle(link);
    await waitFor(() => asked.length === 1, 'the link question', 30_000);
    expect(asked[0]).toMatchObject({ kind: 'launch', server: 'remote-notes', remote: { url: LOOKALIKE_URL }, lookalike: [expect.stringContaining('xn--gthub-n2e.com')] });
    host.consent.respond(asked[0]!.id, 'deny');
    expect(await outcome).toBe('denied');
    expect(host.servers.names()).not.toContain('remote-notes');
    links.dispose();
  });
});
