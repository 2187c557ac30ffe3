/**
 * Stop for manual work, in browser mode against a real server: a tool run by hand and a resource
 * being read show Stop; clicking it ends the request at once and the server sees the cancellation.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const SLOW = join(FIXTURES, 'modern', 'slow-requests.mjs');
const EVENTS = join(tmpdir(), `harbor-e2e-manual-stop-${process.pid}.log`);

const recorded = () => (existsSync(EVENTS) ? readFileSync(EVENTS, 'utf8').trim().split('\n') : []);

test.describe('Stop for manual work', () => {
  test.use({ harborOptions: { registry: { mcpServers: { slow: { command: NODE, args: [SLOW, `--events-file=${EVENTS}`], trusted: true } } } } });
  test.afterAll(() => rmSync(EVENTS, { force: true }));

  test('Stop cancels a slow tool run by hand, and a slow resource read', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await allowCallsWithoutAsking(page, 'slow');
    await goTo(page, 'Tools');
    await pickServer(page, 'slow');
    await expect(page.getByRole('list', { name: 'Tools of slow' })).toBeVisible({ timeout: 30_000 });

    const panel = await runTool(page, 'wait');
    const stop = panel.getByRole('button', { name: 'Stop', exact: true });
    await expect(stop).toBeVisible();
    await expect.poll(recorded).toContain('started tool');
    await screenshot(page, 'view-tools-running-stop', testInfo);
    const clicked = Date.now();
    await stop.click();
    // The tool would run 30 s: the panel says it stopped within moments, and the server was told.
    await expect(panel.getByRole('heading', { name: 'Stopped' })).toBeVisible({ timeout: 5_000 });
    expect(Date.now() - clicked).toBeLessThan(5_000);
    await expect(stop).toBeHidden();
    await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    await expect.poll(recorded).toContain('cancelled tool');

    await goTo(page, 'Resources');
    await page.getByRole('button', { name: 'Read slow' }).click();
    await expect.poll(recorded).toContain('started resource');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Cancelled');
    await expect.poll(recorded).toContain('cancelled resource');
    expect(errors).toEqual([]);
  });
});
