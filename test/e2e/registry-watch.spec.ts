/**
 * harbor.json edited by hand while `harbor web` runs (#31 item 2): a server added in the file
 * appears on the Servers page without a reload; a broken edit shows a banner saying what is wrong
 * and where, and the servers keep running; fixed, the banner goes. The test process is the second
 * process editing the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { FEATURE_SERVER, NODE, collectErrors, expect, goTo, screenshot, serverRow, test } from './servers-fixture';

const feature = (name: string) => ({ command: NODE, args: [FEATURE_SERVER, '--name', name], trusted: true });

test.describe('harbor.json edited by hand', () => {
  test.use({ harborOptions: { registry: { mcpServers: { first: feature('first') } } } });

  test('a server added in the file appears without a reload; a broken edit is shown and changes nothing', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await expect(serverRow(page, 'first')).toBeVisible({ timeout: 30_000 });

    const file = JSON.parse(readFileSync(harbor.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    writeFileSync(harbor.configPath, `${JSON.stringify({ mcpServers: { ...file.mcpServers, byHand: feature('byHand') } }, null, 2)}\n`);
    await expect(serverRow(page, 'byHand')).toBeVisible({ timeout: 30_000 });

    writeFileSync(harbor.configPath, '{\n  "mcpServers": {\n    "first": {"command": "node"}\n    "byHand": {"command": "node"}\n  }\n}\n');
    const banner = page.getByTestId('registry-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('line 4, column 5');
    await expect(serverRow(page, 'byHand')).toBeVisible({ timeout: 30_000 });
    await screenshot(page, 'registry-broken-by-hand', testInfo);

    writeFileSync(harbor.configPath, `${JSON.stringify({ mcpServers: { first: feature('first') } }, null, 2)}\n`);
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await expect(serverRow(page, 'byHand')).toBeHidden({ timeout: 30_000 });
    await expect(serverRow(page, 'first')).toBeVisible({ timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});
