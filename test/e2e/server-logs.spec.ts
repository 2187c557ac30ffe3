/**
 * A server's Logs panel opens on what the server wrote: its stderr and its log messages together,
 * nothing folded away; its controls are one height; and the protocol is named by its version
 * ("2026-07-28", "2025-11-25"), never "modern" or "legacy". Real Host, real fixture servers.
 */
import { join } from 'node:path';
import { FEATURE_SERVER, FIXTURES, NODE, expect, expectNoAxeViolations, goTo, openServer, serverRow, test } from './servers-fixture';
import { shot } from './shots';

test.use({
  harborOptions: {
    registry: {
      mcpServers: {
        feature: { command: NODE, args: [FEATURE_SERVER], trusted: true },
        old: { command: NODE, args: [join(FIXTURES, 'legacy', 'legacy-stdio.mjs')], trusted: true },
      },
    },
  },
});

test('the Logs panel shows stderr and log messages at once, one height of controls, versions not eras', async ({ page, harbor }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  for (const name of ['feature', 'old']) await expect(serverRow(page, name).getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  // The list names the protocol by its version.
  await expect(serverRow(page, 'feature')).toContainText('2026-07-28');
  await expect(serverRow(page, 'old')).toContainText(/20\d\d-\d\d-\d\d/);
  for (const name of ['feature', 'old']) await expect(serverRow(page, name)).not.toContainText(/modern|legacy/);

  const card = await openServer(page, 'feature');
  await expect(card.getByText('Protocol', { exact: true }).locator('..')).not.toContainText(/modern|legacy/);
  await card.getByRole('button', { name: 'Logs of feature' }).click();
  const logs = card.getByRole('region', { name: 'Logs of feature' });
  await shot(page, '12');
  // Both at once: the log messages and stderr, nothing to unfold.
  await expect(logs.getByText(/No log messages yet|Log messages of feature/).first()).toBeVisible();
  const stderr = logs.getByRole('region', { name: 'stderr of feature' });
  await expect(stderr).toBeVisible();
  await expect(stderr.getByRole('button', { name: 'Refresh' })).toBeVisible();
  await expect(logs).not.toContainText(/modern|legacy/);
  // One height for every control of the panel.
  const heights = await Promise.all(
    [logs.getByRole('combobox', { name: 'Level the server sends' }), logs.getByRole('combobox', { name: 'Show' }), logs.getByRole('searchbox', { name: 'Search' })].map(
      async (control) => Math.round((await control.boundingBox())!.height),
    ),
  );
  expect(new Set(heights).size, `heights ${heights.join(', ')}`).toBe(1);
  await expectNoAxeViolations(page, '.server-logs');
});
