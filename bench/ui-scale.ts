/**
 * ui-scale: the renderer at scale, in Debian's Chromium against the built `harbor web` (run
 * `npm run build` first) with 50 generated servers × 40 tools (bench/fixtures/wide-server.mjs):
 *
 * - initial JS: the JavaScript the page has loaded when its first page (the chat) is on screen, in
 *   a fresh browser context (nothing cached). Target: at most half of the single 2,150 kB bundle
 *   the app loaded before its pages were split into chunks.
 * - servers shown: from navigation start (a fresh context, #/servers) to all 50 server cards in
 *   the page. Target: within a second.
 * - long tasks: the page's own PerformanceObserver('longtask') while scrolling the Servers page
 *   and while typing a search on the Tools page. Target: no main-thread task over 50 ms.
 *
 * Each is a figure of its own in the table, with its target.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { readUrlLine, stopProcess } from '../test/e2e/harbor-process';
import { CHROMIUM_ARGS } from './apps-browser';
import type { Figure } from './result';
import { MARKER_ENV, NODE, REPO, freshDir, marker, median } from './support';

export interface UiScaleOptions {
  readonly servers: number;
  readonly toolsPerServer: number;
  /** Fresh-context page loads measured for "servers shown". */
  readonly loads: number;
}

/** out/renderer/assets/index-*.js before code-splitting (commit 9b2b681): the one script the first paint loaded. */
const BUNDLE_BEFORE_SPLIT_BYTES = 2_149_762;
const INITIAL_JS_TARGET = 0.5;
const SERVERS_SHOWN_BUDGET_MS = 1000;
/** The browser's own definition of a long task: anything longer blocks input noticeably. */
const LONG_TASK_MS = 50;

const WIDE_SERVER = join(REPO, 'bench/fixtures/wide-server.mjs');

/** Runs in the page before its own code: every long task, on the page's clock. */
function watchLongTasks(): void {
  const tasks: { start: number; duration: number }[] = [];
  (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

interface Harbor {
  /** The page's address without the token. */
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcessWithoutNullStreams;
}

async function startHarbor(options: UiScaleOptions): Promise<Harbor> {
  const dir = freshDir('ui-scale');
  const mcpServers = Object.fromEntries(
    Array.from({ length: options.servers }, (_, i) => [
      `wide-${String(i).padStart(2, '0')}`,
      { command: NODE, args: [WIDE_SERVER, '--index', String(i), '--tools', String(options.toolsPerServer)], trusted: true },
    ]),
  );
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers }, null, 2));
  const child = spawn(NODE, [join(REPO, 'bin/harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dir], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    // The Host and every server it starts carry the marker, so a crash leaves nothing behind.
    env: { ...process.env, [MARKER_ENV]: marker('ui-scale-host') },
  });
  const url = new URL(await readUrlLine(child));
  const token = /token=([^&]+)/.exec(url.hash)?.[1];
  if (!token) throw new Error(`harbor web printed a URL without a token: ${url.origin}`);
  return { origin: `${url.origin}/`, token: decodeURIComponent(token), child };
}

/** Milliseconds since navigation start when `ready` first holds, polled every frame. */
async function shownAt(page: Page, ready: (arg: number) => boolean, arg: number): Promise<number> {
  await page.waitForFunction(ready, arg, { polling: 'raf', timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

/**
 * A fresh context (no cache), so each load fetches every chunk as a first start does. The tab holds
 * the access token as after a reload (sessionStorage), so a deep link such as #/servers opens that page.
 */
async function freshPage(browser: Browser, harbor: Harbor): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((token) => sessionStorage.setItem('harbor.token', token), harbor.token);
  await page.addInitScript(watchLongTasks);
  return page;
}

async function initialScriptBytes(browser: Browser, harbor: Harbor): Promise<number> {
  const page = await freshPage(browser, harbor);
  await page.goto(harbor.origin);
  const at = await shownAt(page, () => document.getElementById('page-title') !== null, 0);
  const bytes = await page.evaluate(
    (until) =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\.m?js(\?|$)/.test(e.name) && e.startTime <= until)
        .reduce((sum, e) => sum + e.decodedBodySize, 0),
    at,
  );
  await page.context().close();
  return bytes;
}

/** Runs in the page (serialised: everything it needs comes in through its argument). */
const allServersShown = (count: number) => document.querySelectorAll('ul[aria-label="Servers"] > li').length >= count;

/** Every server card says Ready; on timeout, says how far it got. */
async function waitForAllReady(page: Page, count: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const state = await page.evaluate(() => {
      const cards = [...document.querySelectorAll('ul[aria-label="Servers"] > li')];
      return { cards: cards.length, ready: cards.filter((card) => card.textContent?.includes('Ready')).length };
    });
    if (state.cards >= count && state.ready >= count) return;
    if (Date.now() > deadline) throw new Error(`servers not ready within 180 s: ${state.cards} cards, ${state.ready} ready`);
    await page.waitForTimeout(250);
  }
}

async function longestTaskDuring(page: Page, action: () => Promise<void>): Promise<{ longest: number; count: number }> {
  const from = await page.evaluate(() => performance.now());
  await action();
  // A task still running when the action ends is reported once it finishes.
  await page.waitForTimeout(300);
  const tasks = await page.evaluate(
    (since) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((t) => t.start + t.duration >= since),
    from,
  );
  return { longest: Math.max(0, ...tasks.map((t) => t.duration)), count: tasks.length };
}

export async function benchUiScale(options: UiScaleOptions): Promise<Figure[]> {
  if (!existsSync(join(REPO, 'out/renderer/index.html'))) throw new Error('out/renderer is missing: run "npm run build" before the ui-scale benchmark');
  const { chromium } = await import('@playwright/test');
  const harbor = await startHarbor(options);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
    // Every server ready first: the loads below measure the page, not the servers' start.
    const warm = await freshPage(browser, harbor);
    await warm.goto(`${harbor.origin}#/servers`);
    await waitForAllReady(warm, options.servers);

    const initialBytes = await initialScriptBytes(browser, harbor);
    const shown: number[] = [];
    for (let i = 0; i < options.loads; i += 1) {
      const page = await freshPage(browser, harbor);
      await page.goto(`${harbor.origin}#/servers`);
      shown.push(await shownAt(page, allServersShown, options.servers));
      await page.context().close();
    }

    // Scrolling the 50 server cards, then typing a search on the Tools page (a server's 40 tools).
    await warm.mouse.move(800, 500);
    const scrolling = await longestTaskDuring(warm, async () => {
      for (let step = 0; step < 40; step += 1) {
        await warm.mouse.wheel(0, step < 20 ? 400 : -400);
        await warm.waitForTimeout(30);
      }
    });
    await warm.getByRole('link', { name: 'Tools' }).click();
    const search = warm.getByRole('searchbox');
    await search.waitFor({ timeout: 20_000 });
    const typing = await longestTaskDuring(warm, () => search.pressSequentially('export invoices owner', { delay: 40 }));

    const atMost = (value: number) => ({ at: 'most' as const, value });
    const tasks = (during: { longest: number; count: number }) => `longest ${during.longest.toFixed(0)} ms, ${during.count} task(s) over ${LONG_TASK_MS} ms`;
    return [
      {
        name: 'initial JS on first paint',
        value: (initialBytes / BUNDLE_BEFORE_SPLIT_BYTES) * 100,
        unit: '%',
        target: atMost(INITIAL_JS_TARGET * 100),
        measured: `${(initialBytes / 1000).toFixed(0)} kB loaded when the chat shows / ${(BUNDLE_BEFORE_SPLIT_BYTES / 1000).toFixed(0)} kB before the pages were split`,
        problems: [],
        notes: [],
      },
      {
        name: `servers shown (${options.servers} servers)`,
        value: median(shown),
        unit: 'ms',
        target: atMost(SERVERS_SHOWN_BUDGET_MS),
        measured: `navigation to every server card, fresh browser context: ${shown.map((s) => s.toFixed(0)).join(', ')} ms`,
        problems: [],
        notes: [],
      },
      { name: 'longest task scrolling servers', value: scrolling.longest, unit: 'ms', target: atMost(LONG_TASK_MS), measured: tasks(scrolling), problems: [], notes: [] },
      { name: `longest task typing a tool search (${options.toolsPerServer} tools)`, value: typing.longest, unit: 'ms', target: atMost(LONG_TASK_MS), measured: tasks(typing), problems: [], notes: [] },
    ];
  } finally {
    await browser?.close();
    await stopProcess(harbor.child);
  }
}
