/**
 * Tool calls in the conversation as compact cards: one closed line (state, server › tool, time)
 * until opened; results as tables, trees (opened level by level, never a wall of JSON) and inline
 * images. Real Host, the feature fixture and the reference "everything" server, scripted model.
 */
import AxeBuilder from '@axe-core/playwright';
import { consentDialog, expect, openChat, openToolCard, screenshotSizes, send, test } from './chat-fixture';

const STOCK = [
  { item: 'apples', qty: 12, price: 0.4 },
  { item: 'pears', qty: 3, price: 0.55 },
];
const ORDER = { order: { id: 7, customer: { name: 'Ada', address: { city: 'London', street: 'Queen’s Walk' } }, lines: [{ sku: 'a-1', qty: 1 }] } };
/** 3,000 records, each nested: about 250 KB of JSON. */
const BIG = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `record ${i}`, tags: ['x', 'y'], meta: { created: `2026-01-${(i % 28) + 1}`, rank: i * 7 } }));

test('tool cards are one line until opened; results show as tables, trees and images, big JSON never in full', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({
    everything: true,
    script: [
      {
        toolCalls: [
          { name: 'feature__echo', arguments: { text: JSON.stringify(STOCK) } },
          { name: 'feature__echo', arguments: { text: JSON.stringify(ORDER) } },
          { name: 'everything__get-tiny-image', arguments: {} },
          { name: 'everything__get-structured-content', arguments: { location: 'Chicago' } },
          { name: 'feature__echo', arguments: { text: JSON.stringify(BIG) } },
        ],
      },
      { text: 'All five answered.' },
    ],
  });
  await openChat(page, harbor);
  await expect(page.locator('.context-meter summary')).toHaveAttribute('title', /Tool definitions: [\d,]{4,} tokens/, { timeout: 20_000 });
  await send(page, 'Run the tools');
  await consentDialog(page).getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByText('All five answered.')).toBeVisible({ timeout: 20_000 });

  // Closed: each card is one line with server, tool, state and time.
  const cards = page.getByRole('article', { name: /^Tool call / });
  await expect(cards).toHaveCount(5);
  for (const [index, card] of (await cards.all()).entries()) {
    // The image card also shows its image; every other one is a single line.
    if (index !== 2) expect((await card.boundingBox())!.height).toBeLessThan(44);
    await expect(card.getByRole('heading').getByRole('button')).toHaveAttribute('aria-expanded', 'false');
  }
  const echo = cards.first();
  await expect(echo.getByText('Done', { exact: true })).toBeVisible();
  // The run time, after the wait for the person when there was one (#31 item 6).
  await expect(echo.locator('.tool-card__time')).toHaveText(/^(waited \d+(\.\d)? (ms|s) · ran )?\d+(\.\d)? (ms|s)$/);
  await expect(echo.getByRole('table')).toHaveCount(0);

  // A list of flat records is a table.
  await openToolCard(page, 'Tool call feature › echo', 0);
  const table = echo.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['item', 'qty', 'price']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(echo.getByText('You always allow this tool.')).toBeVisible();

  // Nested JSON is a tree, opened a level at a time.
  const order = await openToolCard(page, 'Tool call feature › echo', 1);
  const tree = order.getByRole('group', { name: 'JSON' });
  await expect(tree.getByText('London')).toHaveCount(0);
  await tree.getByRole('button', { name: /order/ }).click();
  await tree.getByRole('button', { name: /customer/ }).click();
  await tree.getByRole('button', { name: /address/ }).click();
  await expect(tree.getByText('“London”')).toBeVisible();

  // An image is shown inline, on the closed card too.
  const image = cards.nth(2);
  await expect(image.getByRole('img', { name: /Image 1 from get-tiny-image/ })).toBeVisible();
  expect(await image.getByRole('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Structured content (a flat record) is a table of fields, shown once though the server repeats it as text.
  const weather = await openToolCard(page, 'Tool call everything › get-structured-content');
  await expect(weather.getByRole('row', { name: /conditions Light rain/ })).toBeVisible();
  await expect(weather.locator('.structured')).toHaveCount(1);

  // 3,000 records: a table of the first 200 rows, the tree a hundred at a time, the raw JSON a page at a time.
  const big = await openToolCard(page, 'Tool call feature › echo', 2);
  await big.getByRole('button', { name: 'Tree' }).click();
  await expect(big.getByRole('button', { name: 'Show 100 more of 3,000' })).toBeVisible();
  expect(await big.getByRole('group', { name: 'Result' }).locator('.json__row').count()).toBe(101);
  await big.getByRole('button', { name: 'JSON', exact: true }).click();
  const raw = (await big.locator('.structured__json').textContent()) ?? '';
  expect(raw.length).toBeLessThan(25_000);
  expect(JSON.stringify(BIG, null, 2).length).toBeGreaterThan(400_000);
  await expect(big.getByRole('button', { name: /^Show more \(\d+ KB left\)$/ })).toBeVisible();

  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);
  await big.getByRole('heading').getByRole('button').click();
  await page.getByRole('region', { name: 'Messages' }).evaluate((el) => el.scrollTo(0, 0));
  await screenshotSizes(page, 'chat-tools', testInfo);
});
