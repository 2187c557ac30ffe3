/**
 * What the ui-scale arms share: the built `harbor web` over 50 generated servers (and, for the
 * chat arms, the scripted model and a data dir seeded beforehand), Debian's Chromium with the
 * page's own PerformanceObserver('longtask') installed before the app's code, and the figures'
 * common shape.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { readUrlLine, stopProcess } from '../test/e2e/harbor-process';
import type { Figure } from './result';
import { MARKER_ENV, NODE, REPO, marker } from './support';

/** The browser's own definition of a long task: anything longer blocks input noticeably. */
export const LONG_TASK_MS = 50;

const WIDE_SERVER = join(REPO, 'bench/fixtures/wide-server.mjs');

export interface BenchHarbor {
  /** The page's address without the token. */
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
}

/**
 * `harbor web` on `dir` (already holding whatever the arm seeded there, e.g. conversations.db)
 * with `servers` wide servers of `toolsPerServer` tools each, every one trusted, plus `registry`
 * entries beside mcpServers (the "model").
 */
export async function startHarbor(dir: string, servers: number, toolsPerServer: number, registry: Record<string, unknown> = {}): Promise<BenchHarbor> {
  const mcpServers = Object.fromEntries(
    Array.from({ length: servers }, (_, i) => [
      `wide-${String(i).padStart(2, '0')}`,
      { command: NODE, args: [WIDE_SERVER, '--index', String(i), '--tools', String(toolsPerServer)], trusted: true },
    ]),
  );
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers, ...registry }, null, 2));
  const child = spawn(NODE, [join(REPO, 'bin/harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dir], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    // The Host and every server it starts carry the marker, so a crash leaves nothing behind.
    env: { ...process.env, [MARKER_ENV]: marker('ui-scale-host') },
  });
  const url = new URL(await readUrlLine(child));
  const token = /token=([^&]+)/.exec(url.hash)?.[1];
  if (!token) throw new Error(`harbor web printed a URL without a token: ${url.origin}`);
  return { origin: `${url.origin}/`, token: decodeURIComponent(token), child, stop: () => stopProcess(child) };
}

/**
 * Runs in the page before its own code: every long task, on the page's clock, and how many User
 * Timing measures of each name were written (the page clears each from its timeline at once).
 */
function watchLongTasks(): void {
  const tasks: { start: number; duration: number }[] = [];
  (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const measures: Record<string, number> = {};
  (window as unknown as { measureCounts: typeof measures }).measureCounts = measures;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) measures[entry.name] = (measures[entry.name] ?? 0) + 1;
  }).observe({ type: 'measure' });
}

/**
 * A fresh context (no cache), so each load fetches every chunk as a first start does. The tab holds
 * the access token as after a reload (sessionStorage), so a deep link such as #/servers opens that page.
 */
export async function freshPage(browser: Browser, harbor: BenchHarbor): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((token) => sessionStorage.setItem('harbor.token', token), harbor.token);
  await page.addInitScript(watchLongTasks);
  return page;
}

/** Every server card says Ready; on timeout, says how far it got. */
export async function waitForAllReady(page: Page, count: number): Promise<void> {
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

export interface LongTasks {
  readonly longest: number;
  readonly count: number;
}

/** The page's long tasks that ended while `action` ran (or just after: a task still running is reported once it finishes). */
export async function longTasksDuring(page: Page, action: () => Promise<void>): Promise<LongTasks> {
  const from = await page.evaluate(() => performance.now());
  await action();
  await page.waitForTimeout(300);
  const tasks = await page.evaluate(
    (since) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((t) => t.start + t.duration >= since),
    from,
  );
  return { longest: Math.max(0, ...tasks.map((t) => t.duration)), count: tasks.length };
}

export const atMost = (value: number) => ({ at: 'most' as const, value });

/** A "no task over 50 ms" figure. */
export function longTaskFigure(name: string, during: LongTasks, context: string, problems: readonly string[] = []): Figure {
  return {
    name,
    value: during.longest,
    unit: 'ms',
    target: atMost(LONG_TASK_MS),
    measured: `${context}: longest ${during.longest.toFixed(0)} ms, ${during.count} task(s) over ${LONG_TASK_MS} ms`,
    problems,
    notes: [],
  };
}

/**
 * Scrolls the element matched by `selector` (the document for ":root") from its top to its bottom
 * in steps of `step` px, one step a frame or so, as a person flicking through it; returns the steps.
 */
export async function scrollThrough(page: Page, selector: string, step: number, pauseMs = 16): Promise<number> {
  let steps = 0;
  for (;;) {
    const left = await page.evaluate(
      ({ sel, by, first }) => {
        const el = sel === ':root' ? document.scrollingElement : document.querySelector(sel);
        if (!el) throw new Error(`nothing to scroll: no ${sel} in the page`);
        if (first) el.scrollTo({ top: 0 });
        const remaining = el.scrollHeight - el.scrollTop - el.clientHeight;
        if (!first && remaining > 1) el.scrollBy({ top: by });
        return first ? Infinity : remaining;
      },
      { sel: selector, by: step, first: steps === 0 },
    );
    if (left <= 1 || steps > 5_000) return steps;
    await page.waitForTimeout(steps === 0 ? 200 : pauseMs);
    steps += 1;
  }
}

/** A Chromium performance trace of the page (CDP Tracing, through Playwright) into `path`, until browser.stopTracing(). */
export async function startTrace(browser: Browser, page: Page, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await browser.startTracing(page, { path, screenshots: false });
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly dur?: number;
  readonly args?: { readonly name?: string };
}

/** The longest task (RunTask) on a renderer's main thread in a saved trace, in ms. */
export function longestTracedTask(path: string): number {
  const trace = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] };
  const main = new Set(trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let longest = 0;
  for (const e of trace.traceEvents) {
    if (e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)) longest = Math.max(longest, (e.dur ?? 0) / 1000);
  }
  return longest;
}
