/**
 * ui-scale, the chat: a 1,000-message conversation (tool cards, 200 KB results) seeded through the
 * Host's conversation store (bench/fixtures/long-conversation.ts), opened in Chromium, scrolled top
 * to bottom; then the scripted model streams long answers into it, once untouched and once while
 * the person types their next message.
 *
 * - conversation shown: from the click in the conversation list to its last row on screen.
 * - long tasks opening it, scrolling it, opening a 200 KB result, receiving a stream, typing during one.
 * - Markdown parses per message: the page's "harbor.markdown.parse" User Timing entries (one per
 *   parse) over the answers shown, after scrolling down and up again. Target: once each.
 * - collapsed results: after the scroll, no tool result is in the page (cards open on demand).
 */
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { SeededConversation } from './fixtures/long-conversation';
import type { Figure } from './result';
import { REPO } from './support';
import { atMost, longTaskFigure, longTasksDuring, longestTracedTask, scrollThrough, startTrace, type LongTasks } from './ui-scale-browser';

/** Opening a stored conversation, however long: within a second (as the servers are shown). */
const CONVERSATION_SHOWN_BUDGET_MS = 1000;
/** The sentence each streamed answer ends with, so the bench knows it has all arrived. */
export const STREAM_END = 'That is the whole migration.';

const MARKDOWN_PARSE = 'harbor.markdown.parse';
/** The trace of the first stream (its long tasks, and the Markdown parses in them as User Timing). */
export const STREAM_TRACE = join(REPO, 'test/output/bench/ui-scale-stream-trace.json');

/** Markdown parses so far, as the page's observer counted them (ui-scale-browser.ts: the page clears each entry once written). */
const parses = (page: Page) =>
  page.evaluate(
    // Observers hear of entries a task later: one frame and a task, then read.
    (name) => new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve((window as unknown as { measureCounts: Record<string, number> }).measureCounts[name] ?? 0), 0))),
    MARKDOWN_PARSE,
  );

/** Clicks the conversation in the list and waits, a frame at a time, until its last row is in the page. */
export async function openConversation(page: Page, seeded: SeededConversation): Promise<number> {
  await page.getByRole('button', { name: seeded.title }).waitFor({ timeout: 30_000 });
  return page.evaluate(
    async ({ title, rows }) => {
      const button = [...document.querySelectorAll<HTMLButtonElement>('.conv-list__item')].find((b) => b.textContent?.includes(title));
      if (!button) throw new Error(`no conversation "${title}" in the list`);
      const start = performance.now();
      button.click();
      await new Promise<void>((resolve) => {
        const check = () => (document.querySelector(`.messages [aria-posinset="${rows}"]`) ? resolve() : requestAnimationFrame(check));
        check();
      });
      return performance.now() - start;
    },
    { title: seeded.title, rows: seeded.rows },
  );
}

/** Sends `text` and waits for the streamed answer's last sentence and the end of the turn. */
async function sendAndWaitForStream(page: Page, text: string, whileStreaming?: () => Promise<void>): Promise<void> {
  // At the end of the conversation, where the answer will show (the list follows it from there).
  await page.locator('.messages').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.waitForTimeout(300);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  try {
    // Streaming: the composer offers Stop while the turn runs.
    await page.locator('.composer__stop').waitFor({ timeout: 30_000 });
    if (whileStreaming) await whileStreaming();
    await page.waitForFunction(
      (end) => !document.querySelector('.composer__stop') && [...document.querySelectorAll('.messages .md')].some((md) => md.textContent?.includes(end)),
      STREAM_END,
      { timeout: 180_000, polling: 250 },
    );
  } catch (error) {
    const last = await page.locator('.messages [role="listitem"]').last().textContent();
    throw new Error(`the streamed answer did not arrive whole; the conversation ends with: ${last?.slice(0, 300)}`, { cause: error });
  }
}

export async function benchChat(browser: Browser, page: Page, seeded: SeededConversation, stream: string): Promise<Figure[]> {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/chat`);
  let shownMs = 0;
  const opening = await longTasksDuring(page, async () => {
    shownMs = await openConversation(page, seeded);
  });

  const before = await parses(page);
  const scrolling = await longTasksDuring(page, async () => {
    await scrollThrough(page, '.messages', 900);
  });
  // Up again: every answer is shown a second time, and must not be parsed a second time.
  await page.locator('.messages').evaluate((el) => el.scrollTo({ top: 0 }));
  await scrollThrough(page, '.messages', 900);
  const parsed = (await parses(page)) - before;
  const answers = seeded.rows / 2;
  const resultsInPage = await page.locator('.messages .result').count();
  const collapsed = resultsInPage === 0 ? [] : [`${resultsInPage} tool result(s) rendered in closed cards`];

  // The first turn's result is one of the 200 KB ones.
  await page.locator('.messages').evaluate((el) => el.scrollTo({ top: 0 }));
  const firstCard = page.locator('.messages .tool-card').first().getByRole('button').first();
  await firstCard.waitFor();
  const openingResult = await longTasksDuring(page, async () => {
    await firstCard.click();
    await page.locator('.messages .result').first().waitFor();
  });

  await startTrace(browser, page, STREAM_TRACE);
  // The tracer starts V8's sampling profiler in the page's next task (a long one of its own, not the
  // app's): a round trip first, so that task ends before the stream's window opens.
  await page.evaluate(() => 0);
  const streamed = await longTasksDuring(page, () => sendAndWaitForStream(page, 'Write the migration plan, with the code.')).finally(() => browser.stopTracing());
  const tracedStream = `trace: ${STREAM_TRACE.slice(REPO.length + 1)} (longest main-thread task in it ${longestTracedTask(STREAM_TRACE).toFixed(0)} ms)`;
  let typing: LongTasks = { longest: 0, count: 0 };
  await sendAndWaitForStream(page, 'Once more, for the export module.', async () => {
    const box = page.getByRole('textbox', { name: 'Message' });
    typing = await longTasksDuring(page, () => box.pressSequentially('Thanks, and what about the search module next?', { delay: 40 }));
  });

  const where = `${seeded.rows.toLocaleString('en-US')} rows, ${seeded.bigResults} results of ${seeded.bigResultBytes / 1000} kB`;
  return [
    {
      name: `conversation shown (${seeded.rows.toLocaleString('en-US')} messages)`,
      value: shownMs,
      unit: 'ms',
      target: atMost(CONVERSATION_SHOWN_BUDGET_MS),
      measured: `click in the list to its last row in the page (${where}); longest task meanwhile ${opening.longest.toFixed(0)} ms`,
      problems: [],
      notes: [],
    },
    longTaskFigure('longest task scrolling the conversation', scrolling, `top to bottom, ${where}`, collapsed),
    {
      name: 'Markdown parses per answer',
      value: parsed / answers,
      unit: '×',
      target: atMost(1),
      measured: `${parsed} parses for ${answers} answers, scrolled down and up again`,
      problems: [],
      notes: [],
    },
    longTaskFigure(`longest task opening a ${seeded.bigResultBytes / 1000} kB result`, openingResult, 'a closed tool card opened'),
    { ...longTaskFigure('longest task receiving a streamed answer', streamed, `${stream} into the ${where}`), notes: [tracedStream] },
    longTaskFigure('longest task typing during a stream', typing, 'typing the next message while the answer streams'),
  ];
}
