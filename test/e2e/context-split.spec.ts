/**
 * The chat's token meter shows how a turn spends its budget: instructions, tools, skills and the
 * conversation's history, from the Host's count. Debian Chromium, `harbor web`, real Host, the
 * feature fixture and the SDK skills fixture, the scripted model.
 */
import { join } from 'node:path';
import { contextMeter, expect, openChat, ROOT, send, test } from './chat-fixture';

const SKILLS_SERVER = join(ROOT, 'test/fixtures/servers/modern/skills-server.mjs');

/** The number on a row of the split ("Tools (tool definitions …) 1,234" → 1234). */
async function part(split: ReturnType<typeof splitOf>, label: string): Promise<number> {
  const text = await split.locator('.context-meter__row').filter({ hasText: new RegExp(`^${label}`) }).locator('dd').innerText();
  return Number(text.replace(/,/g, ''));
}
const splitOf = (page: Parameters<typeof contextMeter>[0]) => page.getByRole('region', { name: 'How a turn spends the budget' });

test('the token meter splits a turn into instructions, tools, skills and history', async ({ page, startHarbor }) => {
  test.setTimeout(120_000);
  const harbor = await startHarbor({
    script: [{ text: 'A long enough answer for the history to count: one, two, three, four, five.' }],
    servers: { skills: { command: process.execPath, args: [SKILLS_SERVER], trusted: true } },
  });
  await openChat(page, harbor);
  await contextMeter(page).click();
  const split = splitOf(page);
  await expect(split).toBeVisible();
  await expect(async () => expect(await part(split, 'Skills')).toBeGreaterThan(0)).toPass({ timeout: 20_000 });
  expect(await part(split, 'Instructions')).toBeGreaterThan(50);
  expect(await part(split, 'Tools')).toBeGreaterThan(50);
  expect(await part(split, 'History')).toBe(0);

  await send(page, 'Say something, please.');
  await expect(page.getByText('A long enough answer')).toBeVisible({ timeout: 30_000 });
  if ((await page.locator('.context-meter').getAttribute('open')) === null) await contextMeter(page).click();
  await expect(async () => expect(await part(split, 'History')).toBeGreaterThan(15)).toPass({ timeout: 20_000 });
});
