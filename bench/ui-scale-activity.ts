/**
 * ui-scale, the Activity log: real traffic through the Host — tool calls over the same WebSocket
 * API the page uses (a second client, as a second window would be), each one a request and a
 * response in the log — until the open Activity page holds 10,000 messages; then scrolled top to
 * bottom. The list must stay virtualized: only the rows in view (and a few) are in the page.
 * Since #31.15 a request and its response are one row, so 10,000 messages are 5,000 rows (one per
 * call); the page keeps up to 10,000 rows (traffic-store.ts), the Host's own log 2,000 messages
 * (traffic.ts) — the page is open before the traffic starts, so it holds every row live.
 */
import type { Page } from '@playwright/test';
import { buildApi, type HarborApi } from '../preload/contract';
import { WebSocketTransport } from '../renderer/src/bridge/ws-transport';
import type { Figure } from './result';
import { longTaskFigure, longTasksDuring, scrollThrough, type BenchHarbor } from './ui-scale-browser';

export interface ActivityOptions {
  readonly messages: number;
  readonly servers: number;
  /** Calls in flight at once. */
  readonly concurrency: number;
}

/** Rows a virtualized list may have in the page at most (a screenful and its overscan). */
const MAX_ROWS_IN_PAGE = 120;

const NOUNS = ['issues', 'files', 'events', 'contacts', 'invoices', 'builds', 'tickets', 'notes', 'images', 'reports'];

/** Server i's read-only tool 0 (bench/fixtures/wide-server.mjs names them so): it runs without a consent prompt. */
const listTool = (server: number) => ({ server: `wide-${String(server).padStart(2, '0')}`, tool: `list_${NOUNS[server % NOUNS.length]}_0` });

/** The API as the page has it, over its own socket (Node's WebSocket, sending the page's Origin). */
function connect(harbor: BenchHarbor): { api: HarborApi; close: () => void } {
  const origin = harbor.origin.replace(/\/$/, '');
  let socket: WebSocket | undefined;
  const transport = new WebSocketTransport(`${origin.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(harbor.token)}`, (url) => {
    socket = new WebSocket(url, { headers: { origin } } as unknown as string[]);
    return socket;
  });
  return { api: buildApi(transport), close: () => socket?.close() };
}

async function callTools(api: HarborApi, calls: number, options: ActivityOptions): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      const n = next++;
      const result = await api.tools.call({ ...listTool(n % options.servers), arguments: { query: `batch ${n}` } });
      if (!result.ok) throw new Error(`tools.call failed: ${result.error.message}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
}

/** How many rows the Activity page lists (a call and its answer are one row). */
const rowsListed = (page: Page) => page.evaluate(() => Number(document.querySelector('.traffic [role="list"] > [role="listitem"]')?.getAttribute('aria-setsize') ?? 0));

export async function benchActivity(page: Page, harbor: BenchHarbor, options: ActivityOptions): Promise<Figure[]> {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/activity`);
  await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
  const { api, close } = connect(harbor);
  const calls = options.messages / 2;
  let receivedMs = 0;
  try {
    const receiving = await longTasksDuring(page, async () => {
      const started = Date.now();
      await callTools(api, calls, options);
      await page.waitForFunction(
        ({ want }) => Number(document.querySelector('.traffic [role="listitem"]')?.getAttribute('aria-setsize') ?? 0) >= want,
        { want: calls },
        { timeout: 120_000, polling: 250 },
      );
      receivedMs = Date.now() - started;
    });
    const listed = await rowsListed(page);
    let mostInPage = 0;
    const scrolling = await longTasksDuring(page, async () => {
      await scrollThrough(page, '.traffic', 1200);
      mostInPage = await page.locator('.traffic [role="listitem"]').count();
    });
    const virtualized = mostInPage <= MAX_ROWS_IN_PAGE ? [] : [`${mostInPage} rows in the page: the list is not virtualized`];
    const what = `${listed.toLocaleString('en-US')} rows listed (a call and its answer one row)`;
    return [
      longTaskFigure(
        `longest task receiving ${options.messages.toLocaleString('en-US')} Activity messages`,
        receiving,
        `${calls} tool calls through the Host, ${options.concurrency} at a time, in ${(receivedMs / 1000).toFixed(1)} s; ${what}`,
      ),
      longTaskFigure('longest task scrolling the Activity log', scrolling, `top to bottom, ${what}, ${mostInPage} rows in the page at the end`, virtualized),
    ];
  } finally {
    close();
  }
}
