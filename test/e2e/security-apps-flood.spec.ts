/**
 * Security findings 10 and 15 in a real browser (Debian Chromium on `harbor web`): an MCP App that
 * floods its bridge once shown — 100k tools/call interleaved with 100k notifications (in bursts of
 * a thousand), then forty 10 MB messages — is stopped with the reason on its card, queues at most one consent question for
 * its tool (withdrawn when it stops), and Harbor's page keeps answering throughout. An app closed
 * while its consent question is on screen takes the question with it.
 *
 * Here rather than in test/security/ because playwright.config.ts runs the specs of test/e2e/.
 */
import type { Page } from '@playwright/test';
import { goTo } from './servers-fixture';
import { send } from './chat-fixture';
import { appRegion, expect, openChatPage, test, toolCard, type AppsHarbor, type AppsOptions } from './apps-fixture';

test.describe.configure({ timeout: 180_000 });

/** Watches the page from inside: the longest gap between 50 ms ticks (a frozen page ticks late) and the most consent questions queued. */
async function watchPage(page: Page): Promise<() => Promise<{ longestGapMs: number; mostWaiting: number }>> {
  await page.evaluate(() => {
    const w = window as unknown as { harborWatch: { longestGapMs: number; mostWaiting: number } };
    w.harborWatch = { longestGapMs: 0, mostWaiting: 0 };
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.harborWatch.longestGapMs = Math.max(w.harborWatch.longestGapMs, now - last);
      last = now;
      const dialogs = [...document.querySelectorAll('[role="dialog"]')].filter((d) => /delete_everything/.test(d.textContent ?? ''));
      const more = /(\d+) more requests? waiting/.exec(dialogs.map((d) => d.textContent).join(' '));
      w.harborWatch.mostWaiting = Math.max(w.harborWatch.mostWaiting, dialogs.length + (more ? Number(more[1]) : 0));
    }, 50);
  });
  return () => page.evaluate(() => (window as unknown as { harborWatch: { longestGapMs: number; mostWaiting: number } }).harborWatch);
}

const deleteQuestion = (page: Page) => page.getByRole('dialog').filter({ hasText: 'delete_everything' });

test('an app that floods its bridge is stopped with the reason on its card; one consent question at most, withdrawn; the page stays responsive', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_flood' }] }, { text: 'The flood app is shown.' }] });
  await openChatPage(page, harbor.url);
  const watched = await watchPage(page);
  await send(page, 'show the flood app');
  const card = toolCard(page, 'flood', 'show_flood');
  await expect(card.getByText('This app was stopped: it sent more than 200 messages per second.')).toBeVisible({ timeout: 90_000 });
  // Its frame is gone, and the question its one waiting call raised went with it.
  await expect(appRegion(card, 'flood', 'show_flood')).toBeHidden();
  await expect(deleteQuestion(page)).toHaveCount(0);
  const seen = await watched();
  console.log(`flood: longest gap ${Math.round(seen.longestGapMs)} ms, most consent questions ${seen.mostWaiting}`);
  expect(seen.mostWaiting, 'consent questions queued at once for the app’s tool').toBeLessThanOrEqual(1);
  // Generous for a shared, busy machine (gaps of 2 s show there with no app at all); the flood froze the page for 14 s.
  expect(seen.longestGapMs, 'the longest the page went without running a 50 ms timer').toBeLessThan(8_000);
  // And the page answers a click at once.
  const clicked = Date.now();
  await goTo(page, 'Activity');
  expect(Date.now() - clicked).toBeLessThan(5_000);
  await expect(page.getByRole('list', { name: 'App activity' })).toContainText(/stopped: it sent more than 200 messages per second/);
});

/**
 * The outsider's round (#27): an app that stays just under every limit. Each 1.1 s `kind` sends what
 * flood-app-server.mjs says; the page's longest pause, the questions queued and the heap it kept are measured.
 */
async function steadyApp(page: Page, startApps: (options: AppsOptions) => Promise<AppsHarbor>, kind: 'steadybig' | 'steadycalls', longestGapMs = 8_000) {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: `flood__show_${kind}` }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  const watched = await watchPage(page);
  const heap = () => page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
  const heapBefore = await heap();
  await send(page, `show the ${kind} app`);
  const region = appRegion(toolCard(page, 'flood', `show_${kind}`), 'flood', `show_${kind}`);
  const proxy = await (await region.locator('iframe').elementHandle({ timeout: 60_000 }))!.contentFrame();
  await expect.poll(() => proxy!.childFrames().length, { timeout: 60_000 }).toBe(1);
  await expect(proxy!.childFrames()[0]!.locator('#state')).toHaveText('steady done', { timeout: 120_000 });
  const seen = await watched();
  const heapAfter = await heap();
  console.log(`${kind}: longest gap ${Math.round(seen.longestGapMs)} ms, most consent questions ${seen.mostWaiting}, page heap ${Math.round(heapBefore / 1e6)} → ${Math.round(heapAfter / 1e6)} MB`);
  expect(seen.mostWaiting, 'consent questions queued at once for the app’s tool').toBeLessThanOrEqual(1);
  expect(seen.longestGapMs, 'the longest the page went without running a 50 ms timer').toBeLessThan(longestGapMs);
  expect(heapAfter - heapBefore, 'what the page kept of what the app sent').toBeLessThan(100 * 1024 * 1024);
}

test("the outsider's round: an app sending 150 tools/call each 1.1 s (just under the rate) for 20 s queues one question at most; the page stays responsive", async ({ page, startApps }) => {
  await steadyApp(page, startApps, 'steadycalls');
});

// The outsider's round (#27.10): three 3.9 MB log messages each 1.1 s (11 MB/s, under the 16 MiB/s and
// 4 MiB limits) froze harbor web's page for 18.6–29.7 s on this loaded 2-core machine (7.6 s at a load
// of 8). The cost was the app's sandbox proxy receiving and re-posting each message: on the page's own
// site (127.0.0.1, another port) the browser ran the proxy in the page's process, on its main thread.
// On another site (localhost) it has a process of its own: the page's longest pause is then ~0.6 s.
// 4 s holds with a wide margin on a loaded machine and fails clearly on the old code.
test("the outsider's round: an app sending 3 × 3.9 MB log messages each 1.1 s (just under the byte rate) for 20 s does not freeze the page", async ({ page, startApps }) => {
  await steadyApp(page, startApps, 'steadybig', 4_000);
});

/**
 * The root of the outsider's round: whatever an app and its sandbox proxy do — building 3.9 MB
 * strings, cloning them into messages, or just spinning — must not be Harbor's page's time. The
 * sandbox is on another site than the page (localhost vs 127.0.0.1), so Chromium's site isolation
 * runs the proxy in a process of its own; on one site the proxy shared the page's main thread. (The
 * app's own frame, sandboxed to an opaque origin, already had a process of its own: the spin held
 * before the fix too; the proxy's process check did not.)
 */
test('an app and its sandbox proxy run in another process than the page: an app busy-spinning 10 s does not stop it', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_spin' }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  const watched = await watchPage(page);
  await send(page, 'show the spin app');
  const region = appRegion(toolCard(page, 'flood', 'show_spin'), 'flood', 'show_spin');
  const proxy = await (await region.locator('iframe').elementHandle({ timeout: 60_000 }))!.contentFrame();
  await expect.poll(() => proxy!.childFrames().length, { timeout: 60_000 }).toBe(1);
  // The proxy is on another site than the page, so the browser gives it its own process: an
  // out-of-process frame is a target of its own (on the page's site it was not: it shared the page's thread).
  const proxyOrigin = new URL(proxy!.url()).origin;
  const cdp = await page.context().newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  expect(targetInfos.filter((t) => t.type === 'iframe').map((t) => new URL(t.url).origin), 'out-of-process frames').toContain(proxyOrigin);
  expect(new URL(page.url()).hostname, 'the page is on 127.0.0.1').toBe('127.0.0.1');
  expect(proxyOrigin, 'the sandbox is on localhost: another site').toMatch(/^http:\/\/localhost:\d+$/);
  await expect(proxy!.childFrames()[0]!.locator('#state')).toHaveText('spun', { timeout: 120_000 });
  const seen = await watched();
  console.log(`spin: longest gap ${Math.round(seen.longestGapMs)} ms while the app spun 10 s`);
  // On one site the page stood still for the whole spin (10 s); in its own process it ticks on (gaps of 2 s show on a busy machine).
  expect(seen.longestGapMs, 'the longest the page went without running a 50 ms timer while the app spun').toBeLessThan(5_000);
});

test('an app that sends one message larger than the limit is stopped, and says so', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_big' }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'show the big app');
  await expect(toolCard(page, 'flood', 'show_big').getByText('This app was stopped: it sent a message larger than 4 MB.')).toBeVisible({ timeout: 60_000 });
});

test('finding 15: an app closed while its consent question is on screen takes the question with it', async ({ page, startApps }) => {
  const harbor = await startApps({ servers: [], fixtures: { flood: 'flood-app-server.mjs' }, script: [{ toolCalls: [{ name: 'flood__show_asker' }] }, { text: 'shown' }] });
  await openChatPage(page, harbor.url);
  await send(page, 'show the asker app');
  await expect(deleteQuestion(page)).toHaveCount(1, { timeout: 60_000 });
  const region = appRegion(toolCard(page, 'flood', 'show_asker'), 'flood', 'show_asker');
  const proxy = await (await region.locator('iframe').elementHandle())!.contentFrame();
  await expect.poll(() => proxy!.childFrames().length).toBe(1);
  // The app asks to be closed (a click inside it, under the dialog): its card closes, and so does its question.
  await proxy!.childFrames()[0]!.locator('#close-me').dispatchEvent('click');
  await expect(toolCard(page, 'flood', 'show_asker').getByText('The flood app closed itself.')).toBeVisible({ timeout: 30_000 });
  await expect(deleteQuestion(page)).toHaveCount(0);
});
