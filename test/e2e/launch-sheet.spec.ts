/**
 * After a restart, the servers waiting to start are asked about in one sheet (issue #31, item 5):
 * each with Start / Deny, plus Start all; Escape puts the sheet aside as a quiet banner instead of
 * opening the next question; a Deny holds (the Host test test/integration/launch-deny-session.test.ts
 * shows no question on later chat turns). Real Host, real fixture servers, real Chromium.
 * With HARBOR_SHOTS_DIR set, the screens are saved there too (test/e2e/shots.ts).
 */
import { FEATURE_SERVER, NODE, collectErrors, expect as baseExpect, expectNoAxeViolations, goTo, test } from './servers-fixture';
import { shot } from './shots';

test.setTimeout(180_000);
const expect = baseExpect.configure({ timeout: 20_000 });

// Three servers nobody approved yet: what a restart finds after "Start this time".
test.use({
  harborOptions: {
    registry: {
      mcpServers: {
        alpha: { command: NODE, args: [FEATURE_SERVER, '--name', 'alpha'] },
        beta: { command: NODE, args: [FEATURE_SERVER, '--name', 'beta'] },
        gamma: { command: NODE, args: [FEATURE_SERVER, '--name', 'gamma'] },
      },
    },
  },
});

test('5: one sheet lists the servers waiting to start; Escape puts it aside as a banner; Start, Deny and Start all', async ({ page, harbor }) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  const sheet = page.getByRole('dialog', { name: 'Servers waiting to start' });
  await expect(sheet).toBeVisible();
  const rows = sheet.getByRole('list', { name: 'Waiting to start' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  for (const name of ['alpha', 'beta', 'gamma']) {
    await expect(sheet.getByRole('button', { name: `Start ${name}` })).toBeVisible();
    await expect(sheet.getByRole('button', { name: `Deny ${name}` })).toBeVisible();
  }
  await expect(sheet.getByRole('button', { name: 'Start all' })).toBeVisible();
  await shot(page, '5');
  await expectNoAxeViolations(page);

  // Escape: no next modal, a quiet banner instead.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const banner = page.getByRole('region', { name: 'Servers waiting to start' });
  await expect(banner).toContainText('3 servers are waiting for your permission to start.');
  await banner.getByRole('button', { name: 'Review' }).click();
  await expect(sheet).toBeVisible();

  // Deny one, then Start all for the others.
  await sheet.getByRole('button', { name: 'Deny beta' }).click();
  await expect(rows).toHaveCount(2);
  await sheet.getByRole('button', { name: 'Start all' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(banner).toHaveCount(0);

  // Started, and the denied one is not asked about again (no sheet, no banner) on the Tools page either.
  await goTo(page, 'Tools');
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption('alpha');
  await expect(page.getByRole('list', { name: /^Tools of / })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(banner).toHaveCount(0);
  expect(errors).toEqual([]);
});
