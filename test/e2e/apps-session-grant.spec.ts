/**
 * #31 item 7, as a person meets it: Debian Chromium on `harbor web`, the published vanilla-JS App
 * server from npm. The person runs get-time by hand on the Tools page and allows it once; the App
 * its result shows calls get-time itself (its "Get Server Time" button). That question names the
 * App and offers "Allow this App to use vanilla's tools for this session", saying what it covers;
 * once chosen, the App's next calls run without a dialog, and the App trail in Activity lists
 * each as allowed.
 */
import { shot } from './shots';
import { expectNoAxeViolations, goTo, pickServer, runTool } from './servers-fixture';
import { appActivity, appFrame, expect, test } from './apps-fixture';

test.describe.configure({ timeout: 180_000 });

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;

test('run by hand → the App calls the same tool → "Allow this App…" → its next calls go through without a dialog', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: ['vanilla'], script: [] });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(harbor.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible({ timeout: 30_000 });
  await goTo(page, 'Tools');
  await pickServer(page, 'vanilla');
  await expect(page.getByRole('list', { name: 'Tools of vanilla' })).toBeVisible({ timeout: 30_000 });

  // By hand: the person's own question, allowed once.
  const panel = await runTool(page, 'get-time');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('You are running this tool by hand.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('[data-app-state]')).toHaveAttribute('data-app-state', 'ready', { timeout: 30_000 });
  const app = await appFrame(panel.getByRole('region', { name: 'App of vanilla for get-time' }));
  const time = app.locator('#server-time');
  await expect(time).toHaveText(ISO);

  // The App calls get-time itself: asked as the App, with the session choice and what it covers.
  const shown = await time.textContent();
  await app.locator('#get-time-btn').dispatchEvent('click');
  await expect(dialog.getByText('Not you: the App of “vanilla” (showing the result of “get-time”) is calling this tool by itself.', { exact: false })).toBeVisible();
  await shot(page, 'app-consent-choice');
  const forSession = dialog.getByRole('button', { name: 'Allow this App to use vanilla’s tools for this session' });
  await expect(forSession).toBeVisible();
  await expect(dialog.getByText(/covers only this App \(ui:\/\/get-time\/mcp-app\.html\) of vanilla, and only the tools of vanilla it may call/)).toBeVisible();
  await expect(dialog.getByText(/It ends when Harbor quits, and is never saved\./)).toBeVisible();
  await expectNoAxeViolations(page, 'dialog');
  await forSession.click();
  await expect(dialog).toHaveCount(0);
  await expect(time).not.toHaveText(shown!);

  // Its next calls: no dialog, a new time each.
  for (let i = 0; i < 2; i += 1) {
    const before = await time.textContent();
    await app.locator('#get-time-btn').dispatchEvent('click');
    await expect(time).not.toHaveText(before!);
    await expect(dialog).toHaveCount(0);
  }

  // The App trail: three calls of its own, each allowed; none refused.
  await goTo(page, 'Activity');
  await expect.poll(async () => (await appActivity(page)).filter((line) => /vanilla\s+tools\/call get-time\s+allowed/.test(line)).length, { message: 'the App’s calls in its trail, allowed', timeout: 30_000 }).toBe(3);
  expect((await appActivity(page)).filter((line) => /tools\/call.*refused/.test(line))).toEqual([]);
});
