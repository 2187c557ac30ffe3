/**
 * The Chat view's room: the messages get most of the window (measured at 1000×700 and 1400×900),
 * one header row, the conversations list collapses (remembered) and becomes a drawer when the
 * chat is narrow; messages are flowing text and quiet bubbles, not bordered cards. Real Host,
 * feature fixture, scripted model, Debian Chromium; screenshots in both themes at both sizes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { consentDialog, expect, openChat, ROOT, screenshotSizes, send, SIZES, test } from './chat-fixture';

const ANSWER = [
  'Here is the **sum** in TypeScript:',
  '',
  '```ts',
  'export function sum(values: readonly number[]): number {',
  '  return values.reduce((total, v) => total + v, 0);',
  '}',
  '```',
  '',
  '> Reduce starts from 0, so an empty list sums to 0.',
  '',
  'Let me check the shop’s stock as well.',
].join('\n');

const STOCK = JSON.stringify([
  { item: 'apples', qty: 12, price: 0.4 },
  { item: 'pears', qty: 3, price: 0.55 },
  { item: 'plums', qty: 0, price: 0.3 },
]);

/** The messages' share of the window: the scroll area's height over the viewport's. */
async function messageShare(page: Page): Promise<number> {
  const box = await page.getByRole('region', { name: 'Messages' }).boundingBox();
  return box!.height / page.viewportSize()!.height;
}

test('messages get at least 75% of a 1000×700 window, under one header row; messages are not cards', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({
    script: [
      { text: ANSWER, toolCalls: [{ name: 'feature__echo', arguments: { text: STOCK } }] },
      { text: 'Plums are out of stock; apples and pears are there.' },
    ],
  });
  await openChat(page, harbor);
  await send(page, 'How do I sum a list in TypeScript? And what is in stock?');
  await consentDialog(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByText('Plums are out of stock; apples and pears are there.')).toBeVisible();

  const measured: Record<string, number> = {};
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => messageShare(page)).toBeGreaterThan(0.5);
    measured[`${width}x${height}`] = Math.round((await messageShare(page)) * 1000) / 10;

    // The header is one row: toggle, title, model, meter and actions share a line.
    const header = page.locator('.chat-header');
    const parts = [
      // At 1000×700 the list is folded behind its toggle (#31.14), at 1400×900 beside the chat.
      page.getByRole('button', { name: /^(Hide|Show) conversations$/ }),
      header.getByRole('heading', { level: 2 }),
      page.getByRole('combobox', { name: 'Model' }),
      page.locator('.context-meter summary'),
      page.getByRole('button', { name: 'Conversation actions' }),
    ];
    const centres = await Promise.all(parts.map(async (p) => ((b) => b!.y + b!.height / 2)(await p.boundingBox())));
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(4);
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(52);
  }
  expect(measured['1000x700']).toBeGreaterThanOrEqual(75);
  testInfo.annotations.push({ type: 'message area', description: JSON.stringify(measured) });
  mkdirSync(join(ROOT, 'test', 'output'), { recursive: true });
  writeFileSync(join(ROOT, 'test', 'output', 'chat-message-area.json'), `${JSON.stringify(measured, null, 2)}\n`);

  // The model's text flows (no card); the person's message is a quiet bubble.
  const answer = page.locator('.msg--assistant').first();
  const style = await answer.evaluate((el) => ({ border: getComputedStyle(el).borderTopWidth, background: getComputedStyle(el).backgroundColor }));
  expect(style).toEqual({ border: '0px', background: 'rgba(0, 0, 0, 0)' });
  const bubble = page.locator('.msg__bubble').first();
  expect(await bubble.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  expect(await bubble.evaluate((el) => getComputedStyle(el).borderTopWidth)).toBe('0px');

  await page.setViewportSize({ width: 1000, height: 700 });
  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);
  await screenshotSizes(page, 'chat', testInfo);
});

test('the conversations list hides (and stays hidden after a reload), and is a drawer in a narrow window', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ text: 'First.' }, { text: 'Second.' }] });
  await openChat(page, harbor);
  await send(page, 'one');
  await expect(page.getByText('First.')).toBeVisible();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await send(page, 'two');
  await expect(page.getByText('Second.')).toBeVisible();

  // Wide enough for the list beside the chat (below about 1100 px it folds, #31.14).
  await page.setViewportSize({ width: 1400, height: 900 });
  const list = page.getByRole('complementary', { name: 'Conversations' });
  await expect(list).toBeVisible();
  const wide = (await page.getByRole('region', { name: 'Messages' }).boundingBox())!.width;
  await page.getByRole('button', { name: 'Hide conversations' }).click();
  await expect(list).toBeHidden();
  expect((await page.getByRole('region', { name: 'Messages' }).boundingBox())!.width).toBeGreaterThan(wide + 150);
  // Without the list, a new conversation is one click away in the header.
  await expect(page.getByRole('button', { name: 'New conversation' })).toBeVisible();
  await page.reload();
  await expect(page.getByText('Second.')).toBeVisible();
  await expect(list).toBeHidden();
  await page.getByRole('button', { name: 'Show conversations' }).click();
  await expect(list).toBeVisible();

  // Narrow: the list is a drawer over the chat, closed until asked for, and closes on a choice or Escape.
  await page.setViewportSize({ width: 820, height: 700 });
  await expect(list).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Show conversations' });
  await toggle.click();
  await expect(list).toBeVisible();
  const drawer = (await list.boundingBox())!;
  const main = (await page.getByRole('region', { name: 'Conversation' }).boundingBox())!;
  expect(drawer.x).toBeLessThan(main.x + 10); // over the chat, not beside it
  await screenshotSizes(page, 'chat-drawer', testInfo, [[820, 700]]);
  await list.getByRole('button', { name: /one/ }).click();
  await expect(list).toBeHidden();
  await expect(page.getByText('First.')).toBeVisible();
  await page.getByRole('button', { name: 'Show conversations' }).click();
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
});
