/**
 * Security finding 4 in a real browser (Debian Chromium on `harbor web`): nothing an App can read
 * names the sandbox server's per-launch token or its own sandbox path — its document's base URL,
 * its own address, its referrer — so it cannot reach Harbor's endpoints without its bridge.
 *
 * Here rather than in test/security/ because playwright.config.ts runs the specs of test/e2e/.
 */
import { send } from './chat-fixture';
import { appFrame, appRegion, expect, openChatPage, test, toolCard } from './apps-fixture';

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
