/**
 * ui-scale, the Tools view across every server's tools (50 × 40 = 2,000), under a Chromium
 * performance trace (Playwright's browser.startTracing: CDP Tracing.start/end) saved as
 * test/output/bench/ui-scale-tools-trace.json — open it in DevTools' Performance panel or
 * https://ui.perfetto.dev to see what a long task was made of. Measured with the page's own
 * PerformanceObserver('longtask'), like every ui-scale figure; the trace's longest main-thread
 * task is noted beside it.
 *
 * - opening the Tools page (all servers, no search) until every server's tool count shows;
 * - scrolling the page through every server's group;
 * - typing a search over all of them.
 */
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { Figure } from './result';
import { longTaskFigure, longTasksDuring, longestTracedTask, scrollThrough, startTrace } from './ui-scale-browser';
import { REPO } from './support';

export const TOOLS_TRACE = join(REPO, 'test/output/bench/ui-scale-tools-trace.json');

export async function benchTools(browser: Browser, page: Page, servers: number): Promise<Figure[]> {
  const total = `${servers} servers' tools`;
  // Start from an empty search (it is kept across visits).
  await page.evaluate(() => localStorage.removeItem('harbor.ui.tools.search'));
  await page.goto(`${page.url().replace(/#.*$/, '')}#/servers`);
  await page.getByRole('link', { name: 'Tools' }).waitFor();
  await startTrace(browser, page, TOOLS_TRACE);
  try {
    const opening = await longTasksDuring(page, async () => {
      await page.getByRole('link', { name: 'Tools' }).click();
      await page.waitForFunction((count) => document.querySelectorAll('.catalog-count').length >= count, servers, { timeout: 60_000, polling: 'raf' });
    });
    const scrolling = await longTasksDuring(page, async () => {
      await scrollThrough(page, ':root', 700);
    });
    const search = page.getByRole('searchbox');
    await search.scrollIntoViewIfNeeded();
    const typing = await longTasksDuring(page, () => search.pressSequentially('export invoices owner', { delay: 40 }));
    await browser.stopTracing();
    const traced = longestTracedTask(TOOLS_TRACE);
    const note = `trace: ${TOOLS_TRACE.slice(REPO.length + 1)} (longest main-thread task in it ${traced.toFixed(0)} ms)`;
    const withNote = (figure: Figure): Figure => ({ ...figure, notes: [note] });
    return [
      withNote(longTaskFigure(`longest task opening Tools (${total})`, opening, 'the page opened until every server shows its tool count')),
      withNote(longTaskFigure(`longest task scrolling Tools (${total})`, scrolling, 'the page scrolled through every server group')),
      withNote(longTaskFigure(`longest task typing a tool search (${total})`, typing, 'a search typed over every server\'s tools')),
    ];
  } catch (error) {
    await browser.stopTracing().catch(() => undefined);
    throw error;
  }
}
