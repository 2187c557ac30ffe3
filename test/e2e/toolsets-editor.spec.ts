/**
 * Settings › Toolsets: create, rename and delete a toolset and choose its entries from the ready
 * servers' catalogs; every save lands in harbor.json's "toolsets" through the registry's locked
 * edit. Debian Chromium, `harbor web`, real Host, the feature fixture.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './chat-fixture';

const toolsetsIn = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { toolsets?: Record<string, string[]> }).toolsets;

test('create, rename and delete a toolset, its entries chosen from the catalog, saved in harbor.json', async ({ page, startHarbor }) => {
  test.setTimeout(120_000);
  const harbor = await startHarbor({ script: [] });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(harbor.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Toolsets' });
  await expect(panel).toBeVisible({ timeout: 20_000 });
  const feature = panel.getByRole('group', { name: 'feature' });
  await expect(feature.getByRole('checkbox', { name: 'feature/echo' })).toBeVisible({ timeout: 30_000 });

  // Create "research" with one tool.
  await panel.getByRole('textbox', { name: 'Name' }).fill('research');
  await feature.getByRole('checkbox', { name: 'feature/echo' }).check();
  await panel.getByRole('button', { name: 'Create toolset' }).click();
  await expect.poll(() => toolsetsIn(harbor.configPath)).toEqual({ research: ['feature/echo'] });

  // Every tool of the server instead, and renamed.
  await expect(panel.getByRole('combobox', { name: 'Toolset' })).toHaveValue('research');
  await feature.getByRole('checkbox', { name: 'feature/echo' }).uncheck();
  await feature.getByRole('checkbox', { name: 'Every tool of feature' }).check();
  await panel.getByRole('textbox', { name: 'Name' }).fill('study');
  await panel.getByRole('button', { name: 'Save toolset' }).click();
  await expect.poll(() => toolsetsIn(harbor.configPath)).toEqual({ study: ['feature/*'] });

  // Deleted.
  await expect(panel.getByRole('combobox', { name: 'Toolset' })).toHaveValue('study');
  await panel.getByRole('button', { name: 'Delete toolset' }).click();
  await expect.poll(() => toolsetsIn(harbor.configPath) ?? {}).toEqual({});
});
