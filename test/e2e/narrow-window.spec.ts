/**
 * #31.14: at 1000×700 the navigation and the conversations list together took 45 % of the width.
 * Below about 1100 px the list folds away behind its toggle (a drawer over the chat), so the
 * conversation has the room; Ctrl/⌘-N puts the cursor in the new chat's composer; a skip link,
 * the first thing Tab reaches, leads to the main content.
 */
import { contextMeter, expect, send, test } from './chat-fixture';

const SHOTS = '/work/wt/shots/31c';

test.describe.configure({ timeout: 180_000 });

test('at 1000×700 the conversations list folds behind its toggle; Ctrl-N focuses the new chat\'s composer; the skip link leads to the main content', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({ script: [{ text: 'First answer.' }] });
  // openChat's steps, with room for a machine under load.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(harbor.url);
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('scripted', { timeout: 60_000 });
  await expect(contextMeter(page)).toHaveAttribute('title', /Tool definitions: [1-9][\d,]* tokens/, { timeout: 60_000 });
  await send(page, 'Hello');
  await expect(page.getByText('First answer.')).toBeVisible({ timeout: 30_000 });

  await page.setViewportSize({ width: 1000, height: 700 });
  const list = page.getByRole('complementary', { name: 'Conversations' });
  await expect(list).toBeHidden();
  // What is left of the chat: its messages take at least 70 % of the width.
  const messages = await page.getByRole('region', { name: 'Messages' }).boundingBox();
  expect(messages!.width / 1000).toBeGreaterThanOrEqual(0.7);
  await page.screenshot({ path: `${SHOTS}/14-after.png` });
  // The toggle opens it over the chat, and Escape folds it again.
  await page.getByRole('button', { name: 'Show conversations' }).click();
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  // Wide again, it is beside the chat.
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(list).toBeVisible();

  // Ctrl-N: a new chat, the cursor in its composer.
  // Focus away from the composer first (the h1 is visually hidden: nothing to click on).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(page.getByRole('textbox', { name: 'Message' })).not.toBeFocused();
  await page.keyboard.press('Control+KeyN');
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');

  // The skip link: first on Tab from the top of the page, it moves focus into the main content.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/14-skip-link-after.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
});
