/**
 * Activity: the Host's JSON-RPC traffic, listed on load and followed live (a call made in another
 * tab shows up without a reload), filtered by server, method and direction, opened and copied.
 */
import { allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, serverRow, test, TWO_FEATURE_SERVERS } from './servers-fixture';

test.use({ harborOptions: TWO_FEATURE_SERVERS });

test('traffic is listed, followed live, filtered and copied', async ({ page, context, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harbor.url).origin });
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  await expect(serverRow(page, 'feature').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(serverRow(page, 'second').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await allowCallsWithoutAsking(page, 'feature');

  await goTo(page, 'Activity');
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('listitem').first()).toBeVisible();
  await expect(messages.getByText('tools/list', { exact: true }).first()).toBeVisible();

  // Live: a call made from another tab appears here without a reload.
  const other = await context.newPage();
  await other.goto(harbor.url);
  await goTo(other, 'Tools');
  await pickServer(other, 'feature');
  const run = await runTool(other, 'echo', { text: 'hello from the other tab' });
  await expect(run.getByRole('region', { name: 'Result' })).toContainText('hello from the other tab');
  await other.close();
  // The call and its answer are one row (#31 item 15).
  await expect(messages.getByText('tools/call', { exact: true })).toBeVisible();
  await expect(messages.getByRole('button', { name: /tools\/call .*with its response/ })).toBeVisible();

  // Filters: server, method, direction.
  const filters = page.getByRole('search', { name: 'Filter messages' });
  await filters.getByRole('combobox', { name: 'Server' }).selectOption('second');
  await expect(messages.getByText('feature', { exact: true })).toHaveCount(0);
  await expect(messages.getByText('second', { exact: true }).first()).toBeVisible();
  await filters.getByRole('combobox', { name: 'Server' }).selectOption('');
  await filters.getByRole('searchbox', { name: 'Method' }).fill('tools/call');
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  // Only what came in: the response, its request filtered out, is a row of its own.
  await filters.getByRole('combobox', { name: 'Direction' }).selectOption('in');
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  await expect(messages.getByText('tools/call (response)', { exact: true })).toBeVisible();

  // Open it, read the JSON, copy it.
  const row = messages.getByRole('listitem').first();
  await row.getByRole('button', { expanded: false }).click();
  await expect(row.locator('pre')).toContainText('"jsonrpc": "2.0"');
  await expect(row.locator('pre')).toContainText('hello from the other tab');
  await row.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(row.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toMatchObject({ jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'hello from the other tab' }] } });

  await filters.getByRole('searchbox', { name: 'Method' }).fill('no-such-method');
  await expect(page.getByText('No message matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(messages.getByRole('listitem').first()).toBeVisible();

  await screenshot(page, 'view-activity-light', testInfo);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'view-activity-dark', testInfo);
  expect(errors).toEqual([]);
});
