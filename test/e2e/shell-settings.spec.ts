/**
 * The app shell and Settings, end to end: an icon beside every navigation entry (names unchanged),
 * Settings' own section navigation (deep links that land on their section), and the model's
 * "Test connection" — one real request through the configured provider (the scripted model) — with
 * its result, in both themes at both sizes. Debian Chromium, `harbor web`.
 */
import AxeBuilder from '@axe-core/playwright';
import { collectErrors, expect, screenshotSizes, test } from './chat-fixture';

const NAV = ['Chat', 'Servers', 'Gallery', 'Tools', 'Resources', 'Prompts', 'Skills', 'Tasks', 'Activity', 'Settings'];

test('navigation icons, Settings sections and the model connection test', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ text: 'ok' }] });
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(harbor.url);

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(NAV);
  for (const name of NAV) {
    const link = nav.getByRole('link', { name, exact: true });
    await expect(link.locator('svg[aria-hidden="true"]')).toHaveCount(1);
    await expect(link.locator('svg')).toBeVisible();
  }

  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(sections.getByRole('link')).toHaveText(['Model', 'Tools in chat', 'Toolsets', 'Approvals', 'Timeouts', 'Sandbox', 'Gallery sources', 'Appearance', 'Updates', 'About']);
  // A section link scrolls its panel into view and moves focus to its heading; the page stays Settings.
  await sections.getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'About' })).toBeFocused();
  await expect(page.getByRole('heading', { level: 2, name: 'About' })).toBeInViewport();
  await expect(sections.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'location');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeAttached();
  await sections.getByRole('link', { name: 'Model' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Model' })).toBeFocused();

  // A deep link from another page (as the chat's "Open settings" is) opens Settings at its section.
  await nav.getByRole('link', { name: 'Chat', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await page.evaluate(() => (window.location.hash = '#/settings/timeouts'));
  await expect(page.getByRole('heading', { level: 2, name: 'Timeouts' })).toBeFocused();
  await expect(page.getByRole('heading', { level: 2, name: 'Timeouts' })).toBeInViewport();
  await sections.getByRole('link', { name: 'Model' }).click();

  // Test connection: one real request through the configured provider.
  const model = page.getByRole('region', { name: 'Model' });
  await model.getByRole('button', { name: 'Test connection' }).click();
  await expect(model.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(/^Connected: openai-compatible:scripted answered in \d+ ms — “ok”\.$/);
  expect(harbor.model.requests).toHaveLength(1);
  expect(harbor.model.requests[0]!.toolNames).toEqual([]);
  await screenshotSizes(page, 'settings-model-test', testInfo);
  // The shell and the whole Settings page, in both themes: no accessibility violations.
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A second test, with nothing left in the script: the provider's failure, said plainly.
  await model.getByRole('button', { name: 'Test connection' }).click();
  await expect(model.getByText(/The model failed/)).toBeVisible();
  expect(errors).toEqual([]);
});
