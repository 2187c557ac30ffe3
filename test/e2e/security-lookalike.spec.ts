/**
 * Security finding 12 (round three) in the app: a server whose name is written in two scripts
 * ("harbor-nоtes", with a Cyrillic о) or whose URL's host is ("gіthub.com", with a Cyrillic і) is
 * marked on the Servers page — a fact on its row and the Host's warning, with the punycode, on its
 * card — while a plain server is not. Debian Chromium, `harbor web`, a real Host.
 */
import { expect, expectNoAxeViolations, FEATURE_SERVER, goTo, NODE, openServer, serverRow, test } from './servers-fixture';

const LOOKALIKE = 'harbor-n\u043etes';

test.use({
  harborOptions: {
    registry: {
      mcpServers: {
        [LOOKALIKE]: { command: NODE, args: [FEATURE_SERVER], trusted: true, enabled: false },
        remote: { url: 'https://g\u0456thub.com/mcp', enabled: false },
        plain: { command: NODE, args: [FEATURE_SERVER], trusted: true, enabled: false },
      },
    },
  },
});

test('look-alike names and hosts are marked on the Servers page; a plain server is not', async ({ page, harbor }) => {
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  await expect(serverRow(page, LOOKALIKE)).toContainText('look-alike name or host', { timeout: 30_000 });
  await expect(serverRow(page, 'plain')).not.toContainText('look-alike');

  const card = await openServer(page, LOOKALIKE);
  const warning = card.getByRole('note', { name: 'Look-alike warning' });
  await expect(warning).toContainText('Check this is the server you mean:');
  await expect(warning).toContainText(/the name "harbor-n.tes" mixes scripts \(.*Cyrillic.*\)/);
  await expectNoAxeViolations(page);

  const remote = await openServer(page, 'remote');
  await expect(remote.getByRole('note', { name: 'Look-alike warning' })).toContainText('g\u0456thub.com (xn--gthub-n2e.com) mixes scripts');

  const plain = await openServer(page, 'plain');
  await expect(plain.getByRole('note', { name: 'Look-alike warning' })).toHaveCount(0);
});
