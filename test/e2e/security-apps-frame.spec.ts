/**
 * Security findings 3 and 4 in a real browser (Debian Chromium on `harbor web`):
 *  - 3: an App cannot navigate its own frame away — not even to a site its server declared for
 *    frames — and keep its bridge: the browser refuses the navigation (the proxy frames only the
 *    App's own document), the App is closed with the reason on its card, and nothing reaches Harbor;
 *  - 4: nothing an App can read names the sandbox server's per-launch token or its own sandbox
 *    path — its document's base URL, its own address, its referrer — so it cannot reach Harbor's
 *    endpoints without its bridge.
 *
 * Here rather than in test/security/ because playwright.config.ts runs the specs of test/e2e/.
 */
import { send } from './chat-fixture';
import { goTo } from './servers-fixture';
import { appActivity, appFrame, appRegion, expect, openChatPage, test, toolCard } from './apps-fixture';

test.describe.configure({ timeout: 180_000 });

test('finding 4: the app reads no sandbox token or path (document.baseURI, location, referrer)', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_quiet' }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'show the quiet app');
  const card = toolCard(page, 'flood', 'show_quiet');
  await expect(card.locator('[data-app-state]')).toHaveAttribute('data-app-state', 'ready', { timeout: 60_000 });
  const region = appRegion(card, 'flood', 'show_quiet');
  const sandboxUrl = new URL((await region.locator('iframe').getAttribute('src'))!);
  const [token, , instanceId] = sandboxUrl.pathname.split('/').filter(Boolean);
  expect(token).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  const app = await appFrame(region);
  const seen = await app.evaluate(() => ({ baseURI: document.baseURI, href: location.href, referrer: document.referrer, url: document.URL }));
  for (const [what, value] of Object.entries(seen)) {
    expect(value, what).not.toContain(token!);
    expect(value, what).not.toContain(instanceId!);
  }
});

test('finding 3: an app that navigates its frame to a declared frame site is refused and closed, its bridge gone', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_leaver' }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'show the leaving app');
  const card = toolCard(page, 'flood', 'show_leaver');
  await expect(card.getByText('The flood app tried to leave its frame for another page, so Harbor closed it.')).toBeVisible({ timeout: 60_000 });
  // The site was never asked for the page: the browser refused the navigation before any request.
  expect(harbor.listener.hits).not.toContain('/navigated.html');
  // Nothing the other page could have sent reached Harbor: no question, no call in the apps' trail.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await goTo(page, 'Activity');
  // The trail loads after the page opens: wait for it, or the absence below proves nothing.
  await expect.poll(async () => (await appActivity(page)).join('\n')).toMatch(/ui\/initialize/);
  const trail = (await appActivity(page)).join('\n');
  expect(trail).not.toContain('delete_everything');
});
