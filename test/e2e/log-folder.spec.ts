/**
 * Settings › About › "Open log folder" in browser mode (#28 §1): a browser cannot open folders, so
 * the page says where Harbor's log is — the data folder's logs/ — with a Copy button.
 * Debian Chromium, `harbor web`, a real Host.
 */
import { join } from 'node:path';
import { expect, expectNoAxeViolations, goTo, test } from './servers-fixture';

test('Open log folder says where the log is, with its path to copy', async ({ page, harbor }) => {
  await page.goto(harbor.url);
  await goTo(page, 'Settings');
  await page.getByRole('button', { name: 'Open log folder' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Harbor’s log is in' });
  await expect(status).toContainText('A browser cannot open folders on your computer.');
  await expect(status.locator('code')).toHaveText(join(harbor.dataDir, 'logs'));
  await expect(status.getByRole('button', { name: 'Copy path' })).toBeVisible();
  await expectNoAxeViolations(page);
});
