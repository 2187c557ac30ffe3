/**
 * ui-scale: the renderer at scale, in Debian's Chromium against the built `harbor web` (run
 * `npm run build` first) with 50 generated servers × 40 tools (bench/fixtures/wide-server.mjs), the
 * scripted model, and a 1,000-message conversation seeded through the Host's conversation store:
 *
 * - initial JS: the JavaScript the page has loaded when its first page (the chat) is on screen, in
 *   a fresh browser context (nothing cached). Target: at most half of the single 2,150 kB bundle
 *   the app loaded before its pages were split into chunks.
 * - servers shown: from navigation start (a fresh context, #/servers) to all 50 server cards in
 *   the page. Target: within a second.
 * - long tasks (the page's own PerformanceObserver('longtask')) while scrolling the Servers page;
 *   opening, scrolling and searching the Tools view over all 2,000 tools, under a performance
 *   trace (ui-scale-tools.ts); opening, scrolling and streaming into the long conversation (the
 *   first stream traced too), and typing during a stream (ui-scale-chat.ts); receiving and
 *   scrolling 10,000 Activity messages (ui-scale-activity.ts). Target: no task over 50 ms.
 *
 * Each is a figure of its own in the table, with its target.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../test/fixtures/model/scripted-model';
import { CHROMIUM_ARGS } from './apps-browser';
import { seedConversation, streamedAnswer } from './fixtures/long-conversation';
import type { Figure } from './result';
import { REPO, freshDir, median } from './support';
import { benchActivity } from './ui-scale-activity';
import { atMost, freshPage, longTaskFigure, longTasksDuring, startHarbor, waitForAllReady, type BenchHarbor } from './ui-scale-browser';
import { STREAM_END, benchChat, openConversation } from './ui-scale-chat';
import { benchTools } from './ui-scale-tools';

export interface UiScaleOptions {
  readonly servers: number;
  readonly toolsPerServer: number;
  /** Fresh-context page loads measured for "servers shown". */
  readonly loads: number;
  /** Turns of the seeded conversation (four rows each). */
  readonly turns: number;
  /** Tokens of each streamed answer. */
  readonly streamTokens: number;
  /** Messages the Activity log receives (each tool call is two). */
  readonly activityMessages: number;
}

/** out/renderer/assets/index-*.js before code-splitting (commit 9b2b681): the one script the first paint loaded. */
const BUNDLE_BEFORE_SPLIT_BYTES = 2_149_762;
const INITIAL_JS_TARGET = 0.5;
const SERVERS_SHOWN_BUDGET_MS = 1000;
/** Pause between streamed pieces: a few hundred tokens a second, faster than any model streams. */
const STREAM_PIECE_MS = 2;

/** Milliseconds since navigation start when `ready` first holds, polled every frame. */
async function shownAt(page: Page, ready: (arg: number) => boolean, arg: number): Promise<number> {
  await page.waitForFunction(ready, arg, { polling: 'raf', timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

async function initialScriptBytes(browser: Browser, harbor: BenchHarbor): Promise<number> {
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

/** The first figures: the app's first paint and the Servers page. */
async function benchFirstPaint(browser: Browser, harbor: BenchHarbor, warm: Page, options: UiScaleOptions): Promise<Figure[]> {
  const initialBytes = await initialScriptBytes(browser, harbor);
  const shown: number[] = [];
  for (let i = 0; i < options.loads; i += 1) {
    const page = await freshPage(browser, harbor);
    await page.goto(`${harbor.origin}#/servers`);
    shown.push(await shownAt(page, allServersShown, options.servers));
    await page.context().close();
  }
  await warm.mouse.move(800, 500);
  const scrolling = await longTasksDuring(warm, async () => {
    for (let step = 0; step < 40; step += 1) {
      await warm.mouse.wheel(0, step < 20 ? 400 : -400);
      await warm.waitForTimeout(30);
    }
  });
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
    longTaskFigure('longest task scrolling servers', scrolling, `${options.servers} server cards, down and up`),
  ];
}

/**
 * UI_SCALE_ONLY=open (`UI_SCALE_ONLY=open npm run bench -- --only ui-scale`): only the opening of the
 * 1,000-message conversation, `UI_SCALE_OPENS` times (default 3) in fresh contexts, with one server.
 */
async function benchOpenOnly(browser: Browser, harbor: BenchHarbor, seeded: ReturnType<typeof seedConversation>): Promise<Figure[]> {
  const opens = Number(process.env.UI_SCALE_OPENS ?? 3);
  const shown: number[] = [];
  const longest: number[] = [];
  for (let i = 0; i < opens; i += 1) {
    const page = await freshPage(browser, harbor);
    await page.goto(`${harbor.origin}#/chat`);
    const tasks = await longTasksDuring(page, async () => {
      shown.push(await openConversation(page, seeded));
    });
    longest.push(tasks.longest);
    await page.context().close();
  }
  return [
    {
      name: `conversation shown (${seeded.rows.toLocaleString('en-US')} messages), open only`,
      value: median(shown),
      unit: 'ms',
      target: atMost(1000),
      measured: `${opens} fresh contexts: shown ${shown.map((s) => s.toFixed(0)).join(', ')} ms; longest task meanwhile ${longest.map((l) => l.toFixed(0)).join(', ')} ms`,
      problems: [],
      notes: [],
    },
  ];
}

export async function benchUiScale(options: UiScaleOptions): Promise<Figure[]> {
  if (!existsSync(join(REPO, 'out/renderer/index.html'))) throw new Error('out/renderer is missing: run "npm run build" before the ui-scale benchmark');
  const { chromium } = await import('@playwright/test');
  const dir = freshDir('ui-scale');
  const seeded = seedConversation(dir, options.turns);
  const pieces = streamedAnswer(options.streamTokens, STREAM_END);
  const stream = { text: pieces, delayMs: STREAM_PIECE_MS };
  let model: ScriptedModel | undefined;
  let harbor: BenchHarbor | undefined;
  let browser: Browser | undefined;
  const figures: Figure[] = [];
  try {
    model = await startScriptedModel({ script: [stream, stream] });
    const openOnly = process.env.UI_SCALE_ONLY === 'open';
    harbor = await startHarbor(dir, openOnly ? 1 : options.servers, options.toolsPerServer, { model: model.modelConfig() });
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
    if (openOnly) return await benchOpenOnly(browser, harbor, seeded);
    // Every server ready first: the loads below measure the page, not the servers' start.
    const warm = await freshPage(browser, harbor);
    await warm.goto(`${harbor.origin}#/servers`);
    await waitForAllReady(warm, options.servers);

    figures.push(...(await benchFirstPaint(browser, harbor, warm, options)));
    figures.push(...(await benchTools(browser, warm, options.servers)));
    await warm.context().close();

    const chat = await freshPage(browser, harbor);
    await chat.goto(harbor.origin);
    figures.push(...(await benchChat(browser, chat, seeded, `${pieces.length.toLocaleString('en-US')} streamed pieces (about ${options.streamTokens.toLocaleString('en-US')} tokens, code included)`)));
    await chat.context().close();

    const activity = await freshPage(browser, harbor);
    await activity.goto(harbor.origin);
    figures.push(...(await benchActivity(activity, harbor, { messages: options.activityMessages, servers: options.servers, concurrency: 16 })));
    return figures;
  } catch (error) {
    // What was measured before the failure still helps to find it.
    for (const f of figures) process.stdout.write(`    (measured before the failure) ${f.name}: ${f.value.toFixed(1)} ${f.unit} — ${f.measured}\n`);
    throw error;
  } finally {
    await browser?.close();
    await harbor?.stop();
    await model?.close();
  }
}
