/**
 * Tools, Resources and Prompts against real fixture servers: lists update live when a server
 * changes them, server-written HTML and javascript: links stay inert text, 500 tools stay
 * virtualized, a tool runs by hand from its schema form, resources are read (templates with the
 * server's completions), and a prompt is rendered from its argument form.
 */
import { FEATURE_SERVER, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const HOSTILE = '<img src=x onerror="window.__pwned=1"> [click me](javascript:window.__pwned=2) <a href="javascript:window.__pwned=3">link</a>';

test.describe('one feature server', () => {
  test.use({ harborOptions: { registry: { mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER], trusted: true } } } } });

  test('the tool list follows the server live, and a hostile description renders as inert text', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await allowCallsWithoutAsking(page, 'feature');
    await goTo(page, 'Tools');
    await pickServer(page, 'feature');
    const list = page.getByRole('list', { name: 'Tools of feature' });
    await expect(list.getByText('Echo the text back.')).toBeVisible({ timeout: 30_000 });
    await screenshot(page, 'view-tools-light', testInfo);

    const mutate = await runTool(page, 'mutate', { description: HOSTILE });
    await expect(mutate.getByRole('region', { name: 'Result' })).toContainText('echo is now described as');
    // The echo row changed without a reload, to the literal text.
    await expect(list.getByText(HOSTILE, { exact: true })).toBeVisible({ timeout: 15_000 });
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // Opening it shows the full description, still as text.
    await list.getByRole('button', { name: 'Run echo', exact: true }).click();
    await expect(page.getByRole('region', { name: /^Run echo/ }).getByText(HOSTILE, { exact: true })).toBeVisible();
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    await runTool(page, 'remove_tool', { name: 'echo' });
    await expect(list.getByRole('button', { name: 'Run echo', exact: true })).toBeHidden({ timeout: 15_000 });
    await runTool(page, 'restore_tool', { name: 'echo' });
    await expect(list.getByRole('button', { name: 'Run echo', exact: true })).toBeVisible({ timeout: 15_000 });

    // Turning a tool off keeps the server running and says so in the list.
    await list.getByRole('switch', { name: 'Offer add to the model' }).uncheck();
    await expect(page.getByText(/· 1 turned off/)).toBeVisible();
    await list.getByRole('switch', { name: 'Offer add to the model' }).check();
    await expect(page.getByText(/· 1 turned off/)).toBeHidden();

    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'view-tools-dark', testInfo);
    expect(errors).toEqual([]);
  });

  test('a tool runs by hand from its form; resources are read; a prompt is rendered with completions', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Tools');
    await pickServer(page, 'feature');
    await expect(page.getByRole('list', { name: 'Tools of feature' })).toBeVisible({ timeout: 30_000 });
    // add is read-only on a trusted server: it runs without a dialog.
    // b is a number box: "-" is the nearest a person can type to not-a-number into it.
    const add = await runTool(page, 'add', { a: '2', b: '-' });
    await expect(add.getByText('Must be a number.')).toBeVisible();
    await add.getByRole('spinbutton', { name: /^b/ }).fill('3');
    await add.getByRole('button', { name: 'Run', exact: true }).click();
    const result = add.getByRole('region', { name: 'Result' });
    await expect(result.getByText('5', { exact: true })).toBeVisible();
    await result.getByText('Structured content').click();
    await expect(result).toContainText('"sum": 5');

    await goTo(page, 'Resources');
    await page.getByRole('button', { name: 'Read Hello' }).click();
    await expect(page.getByText('Hello from the feature fixture.')).toBeVisible();
    await page.getByRole('button', { name: 'Read Ünïcödé' }).click();
    await expect(page.getByText('ünïcödé: ünï')).toBeVisible();

    await page.getByRole('button', { name: 'Use template Item' }).click();
    const id = page.getByRole('textbox', { name: /^id/ });
    await id.focus();
    const suggestions = page.getByRole('list', { name: 'Suggestions for id' });
    await expect(suggestions.getByRole('button', { name: '42' })).toBeVisible();
    await id.fill('4');
    await expect(suggestions.getByRole('button')).toHaveText(['42']);
    await suggestions.getByRole('button', { name: '42' }).click();
    await expect(page.getByText('Reads fixture://item/42')).toBeVisible();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(page.getByText('item 42', { exact: true })).toBeVisible();
    await screenshot(page, 'view-resources-light', testInfo);

    await goTo(page, 'Prompts');
    await page.getByRole('button', { name: 'Use prompt greet' }).click();
    await page.getByRole('button', { name: 'Show messages' }).click();
    await expect(page.getByText('Required.')).toBeVisible();
    await page.getByRole('textbox', { name: /^name/ }).fill('Ana');
    await page.getByRole('button', { name: 'Show messages' }).click();
    await expect(page.getByRole('region', { name: 'Prompt messages' })).toContainText('Hello, Ana!');
    await screenshot(page, 'view-prompts-light', testInfo);
    expect(errors).toEqual([]);
  });
});

test.describe('a server with 500 tools', () => {
  test.use({ harborOptions: { registry: { mcpServers: { many: { command: NODE, args: [FEATURE_SERVER, '--tools-count', '500'], trusted: true } } } } });

  test('the list stays virtualized: far fewer rows in the page than tools, and scrolling reaches the last one', async ({ page, harbor }) => {
    await page.goto(harbor.url);
    await goTo(page, 'Tools');
    const list = page.getByRole('list', { name: 'Tools of many' });
    await expect(list).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('509 tools', { exact: true })).toBeVisible();
    const rendered = await list.getByRole('listitem').count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(60);
    await expect(list.getByText('extra_500', { exact: true })).toHaveCount(0);

    // Scroll to the end: the last tool is rendered, and still only a window of rows is.
    await list.evaluate((el) => el.parentElement!.scrollTo({ top: el.parentElement!.scrollHeight }));
    await expect(list.getByText('extra_500', { exact: true })).toBeVisible();
    expect(await list.getByRole('listitem').count()).toBeLessThan(60);
    await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', '509');

    // Search narrows 509 to the matching few at once.
    await page.getByRole('searchbox', { name: 'Search tools' }).fill('extra_49');
    await expect(page.getByText('11 of 509 tools match')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(11);
  });
});
