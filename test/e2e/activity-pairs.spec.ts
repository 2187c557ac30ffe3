/**
 * Activity beyond the raw log: a request and its response carry the latency and a failure marks
 * both; pause holds the list while messages keep coming; export downloads what the filters show
 * as JSON lines; clear empties the list; the filters and the server events survive a reload.
 */
import { readFileSync } from 'node:fs';
import { allowCallsWithoutAsking, expectNoAxeViolations, screenshotBothThemes, collectErrors, expect, goTo, pickServer, runTool, serverRow, test, TWO_FEATURE_SERVERS } from './servers-fixture';

test.use({ harborOptions: TWO_FEATURE_SERVERS });

test.describe.configure({ timeout: 180_000 });

test('pairs, pause, export, clear, and what a reload keeps', async ({ page, context, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  await expect(serverRow(page, 'feature').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(serverRow(page, 'second').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await allowCallsWithoutAsking(page, 'feature');
  await goTo(page, 'Tools');
  await pickServer(page, 'feature');
  const failed = await runTool(page, 'fail');
  await expect(failed.getByRole('region', { name: 'Result' })).toContainText('This tool always fails.');

  await goTo(page, 'Activity');
  const messages = page.getByRole('list', { name: 'Messages' });
  const filters = page.getByRole('search', { name: 'Filter messages' });
  await filters.getByRole('searchbox', { name: 'Method' }).fill('tools/call');
  // The failed call: one row for the request and its response, marked failed, with the time between them.
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  const pair = messages.getByRole('listitem').nth(0);
  await expect(pair.getByText('tools/call', { exact: true })).toBeVisible();
  await expect(pair.getByText('error', { exact: true })).toBeVisible();
  await expect(pair.getByText(/^\d+ ms$|^\d+(\.\d)? s$/)).toBeVisible();
  // Opened: the request and the response, each readable, each reachable by keyboard when it scrolls.
  await pair.getByRole('button', { name: /tools\/call/ }).click();
  await expect(pair.getByRole('region', { name: 'Request' })).toContainText('"method": "tools/call"');
  await expect(pair.getByRole('region', { name: 'Response' })).toContainText('"isError": true');
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.screenshot({ path: '/work/wt/shots/31c/15-after.png', fullPage: true });
  await expectNoAxeViolations(page);

  // Pause: new messages wait behind the list until Resume.
  const actions = page.getByRole('toolbar', { name: 'Message actions' });
  await actions.getByRole('button', { name: 'Pause' }).click();
  await expect(actions.getByRole('button', { name: 'Resume' })).toHaveAttribute('aria-pressed', 'true');
  const other = await context.newPage();
  await other.goto(harbor.url);
  await goTo(other, 'Tools');
  await pickServer(other, 'feature');
  const echo = await runTool(other, 'echo', { text: 'while paused' });
  await expect(echo.getByRole('region', { name: 'Result' })).toContainText('while paused');
  await other.close();
  await expect(actions.getByRole('status')).toContainText(/\d+ new messages? waiting/);
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  await actions.getByRole('button', { name: 'Resume' }).click();
  await expect(messages.getByRole('listitem')).toHaveCount(2);

  // Export: the filtered rows, one JSON object a line, paired.
  const [download] = await Promise.all([page.waitForEvent('download'), actions.getByRole('button', { name: 'Export' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^harbor-activity-.*\.jsonl$/);
  const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toHaveLength(4);
  expect(lines.every((line) => line.server === 'feature')).toBe(true);
  expect(lines.filter((line) => line.error === true)).toHaveLength(2);
  expect(lines[1]).toMatchObject({ direction: 'in', answers: 'tools/call', pairSeq: lines[0]!.seq, message: { jsonrpc: '2.0', result: { isError: true } } });
  expect(typeof lines[1]!.latencyMs).toBe('number');

  await expectNoAxeViolations(page);
  for (const [width, height] of [[1000, 700], [1400, 900]] as const) {
    await page.setViewportSize({ width, height });
    await screenshotBothThemes(page, 'activity', testInfo);
  }

  // A reload keeps the filters, and the server events from before it.
  await filters.getByRole('combobox', { name: 'Direction' }).selectOption('in');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expect(filters.getByRole('searchbox', { name: 'Method' })).toHaveValue('tools/call');
  await expect(filters.getByRole('combobox', { name: 'Direction' })).toHaveValue('in');
  await expect(messages.getByRole('listitem')).toHaveCount(2);
  const events = page.getByRole('list', { name: 'Server events' });
  await expect(events.getByText('is ready').first()).toBeVisible();
  await expect(events.getByText('second', { exact: true }).first()).toBeVisible();

  // Clear: the list empties; what comes next still shows.
  await filters.getByRole('combobox', { name: 'Direction' }).selectOption('all');
  await filters.getByRole('searchbox', { name: 'Method' }).fill('');
  await actions.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByText('No messages yet')).toBeVisible();
  await expect(messages).toHaveCount(0);
  expect(errors).toEqual([]);
});
