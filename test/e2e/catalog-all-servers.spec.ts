/**
 * Tools, Resources and Prompts search every server at once, grouped by server; the search text,
 * the server picked and the item opened are kept across a reload.
 */
import { collectErrors, expectNoAxeViolations, screenshotBothThemes, expect, goTo, test, TWO_FEATURE_SERVERS } from './servers-fixture';

test.use({ harborOptions: TWO_FEATURE_SERVERS });

test('one search over every server, grouped, kept across a reload', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await goTo(page, 'Tools');
  const picker = page.getByRole('combobox', { name: 'Server', exact: true });
  await expect(picker).toHaveValue('');
  await expect(picker.locator('option:checked')).toHaveText('All servers');
  const feature = page.getByRole('region', { name: 'feature' });
  const second = page.getByRole('region', { name: 'second' });
  await expect(feature.getByRole('list', { name: 'Tools of feature' })).toBeVisible({ timeout: 30_000 });
  await expect(second.getByRole('list', { name: 'Tools of second' })).toBeVisible({ timeout: 30_000 });

  // One search box filters both groups.
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('ech');
  await expect(feature.getByRole('button', { name: 'Run echo', exact: true })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Run echo', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run add', exact: true })).toHaveCount(0);
  // The Host's one tool index ranks the search (as search_tools and `harbor tools --search` do): it
  // knows parameters too — "delay" is only a parameter of slow (delayMs), in no name or description.
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('delay');
  await expect(feature.getByRole('button', { name: 'Run slow', exact: true })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Run slow', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run echo', exact: true })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('ech');
  await expect(second.getByRole('button', { name: 'Run echo', exact: true })).toBeVisible();
  await second.getByRole('button', { name: 'Run echo', exact: true }).click();
  await expect(second.getByRole('region', { name: /^Run echo/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Run echo/ })).toHaveCount(1);

  await expectNoAxeViolations(page);
  for (const [width, height] of [[1000, 700], [1400, 900]] as const) {
    await page.setViewportSize({ width, height });
    await screenshotBothThemes(page, 'tools-all', testInfo);
  }

  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search tools' })).toHaveValue('ech');
  await expect(second.getByRole('region', { name: /^Run echo/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Run add', exact: true })).toHaveCount(0);

  // Resources: the same, with the resource read kept open.
  await goTo(page, 'Resources');
  await page.getByRole('searchbox', { name: 'Search resources' }).fill('hello');
  await expect(page.getByRole('button', { name: 'Read Hello' })).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Read Ünïcödé' })).toHaveCount(0);
  await feature.getByRole('button', { name: 'Read Hello' }).click();
  await expect(feature.getByText('Hello from the feature fixture.')).toBeVisible();
  await expectNoAxeViolations(page);

  // Prompts: a picked server is kept too, for every catalog page.
  await goTo(page, 'Prompts');
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption('second');
  await page.getByRole('button', { name: 'Use prompt greet' }).click();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Server', exact: true })).toHaveValue('second');
  await expect(page.getByRole('region', { name: 'second' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: /greet/ }).first()).toBeVisible({ timeout: 30_000 });
  await goTo(page, 'Resources');
  await expect(page.getByRole('combobox', { name: 'Server', exact: true })).toHaveValue('second');
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption('');
  await expect(feature.getByText('Hello from the feature fixture.')).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});
