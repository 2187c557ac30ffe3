/**
 * The side navigation folds into an icon rail: the toggle names what it does, the entries keep
 * their names (tooltips in the rail), the choice survives a reload, navigation through the rail
 * works, the servers' health stays in sight, the chat's message area grows, and a narrow window
 * starts as a rail. Real Host, feature fixture, scripted model, Debian Chromium, `harbor web`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { collectErrors, expect, openChat, ROOT, screenshotSizes, send, test } from './chat-fixture';

const NAV = ['Chat', 'Servers', 'Gallery', 'Tools', 'Resources', 'Prompts', 'Skills', 'Tasks', 'Activity', 'Settings'];

/** The messages' scroll area: its share of the window's height, and its area in px². */
async function messageArea(page: Page): Promise<{ heightShare: number; width: number; area: number }> {
  const box = (await page.getByRole('region', { name: 'Messages' }).boundingBox())!;
  const height = page.viewportSize()!.height;
  return { heightShare: Math.round((box.height / height) * 1000) / 10, width: Math.round(box.width), area: Math.round(box.width * box.height) };
}

test('the navigation collapses to an icon rail, stays so after a reload, still navigates, and gives the chat more room', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ text: 'A short answer.' }] });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'Hello');
  await expect(page.getByText('A short answer.')).toBeVisible();
  await page.setViewportSize({ width: 1000, height: 700 });

  const nav = page.getByRole('navigation', { name: 'Main' });
  const side = page.locator('.shell__side');
  const collapse = page.getByRole('button', { name: 'Collapse navigation' });
  await expect(collapse).toHaveAttribute('aria-expanded', 'true');
  await expect(collapse).toHaveAttribute('aria-controls', (await nav.getAttribute('id'))!);
  const expanded = await messageArea(page);
  const sideWide = (await side.boundingBox())!.width;

  await collapse.click();
  const expand = page.getByRole('button', { name: 'Expand navigation' });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expect(expand).toBeFocused();
  expect((await side.boundingBox())!.width).toBeLessThan(72);
  // Icons only: the names are the links' accessible names and tooltips, not visible text.
  await expect(nav.getByRole('link')).toHaveText(NAV);
  for (const name of NAV) {
    const link = nav.getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('title', name);
    await expect(link.locator('svg')).toBeVisible();
    expect((await link.boundingBox())!.width).toBeLessThan(56);
  }
  const collapsed = await messageArea(page);
  expect(collapsed.width).toBeGreaterThan(expanded.width + sideWide - 80);
  expect(collapsed.area).toBeGreaterThan(expanded.area);
  expect(collapsed.heightShare).toBeGreaterThanOrEqual(75);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await screenshotSizes(page, 'nav-rail', testInfo);

  const measured = { expanded, collapsed, window: '1000x700' };
  testInfo.annotations.push({ type: 'message area', description: JSON.stringify(measured) });
  mkdirSync(join(ROOT, 'test', 'output'), { recursive: true });
  writeFileSync(join(ROOT, 'test', 'output', 'nav-rail-message-area.json'), `${JSON.stringify(measured, null, 2)}\n`);

  // Remembered across a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toHaveAttribute('aria-expanded', 'false');
  expect((await side.boundingBox())!.width).toBeLessThan(72);

  // The rail navigates like the full list.
  for (const name of ['Servers', 'Tools', 'Settings', 'Chat'] as const) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeAttached();
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  }

  // Open again: names visible, no tooltips.
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await expect(page.getByRole('button', { name: 'Collapse navigation' })).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Tools', exact: true })).not.toHaveAttribute('title', /./);
  expect((await side.boundingBox())!.width).toBeGreaterThan(150);
  expect(errors).toEqual([]);
});

test('a narrow window starts with the rail; the servers’ health stays visible in it', async ({ page, startHarbor }) => {
  // An untrusted server whose start the person denies: it waits for them, and the health says so.
  const harbor = await startHarbor({ script: [], trustedFeature: false });
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 760, height: 700 });
  await page.goto(harbor.url);
  const question = page.getByRole('dialog', { name: 'Start the server “feature”?' });
  await expect(question).toBeVisible({ timeout: 20_000 });
  await question.getByRole('button', { name: 'Deny', exact: true }).click();

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Servers', exact: true })).toHaveAttribute('title', 'Servers');
  const side = (await page.locator('.shell__side').boundingBox())!;
  expect(side.width).toBeLessThan(72);
  const health = nav.getByRole('link', { name: '1 needs your attention' });
  await expect(health).toBeVisible({ timeout: 15_000 });
  await expect(health).toBeInViewport();
  const badge = (await health.boundingBox())!;
  expect(badge.x + badge.width).toBeLessThanOrEqual(side.x + side.width);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  expect(errors).toEqual([]);
});
