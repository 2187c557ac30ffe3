/**
 * A notification never covers the composer: at 1280×800 a server that cannot start raises a toast
 * while the chat is open, and the toast's box and the composer's (Send included) do not meet.
 * Real Host, the feature fixture and a server whose program does not exist, the scripted model.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, openChat, test } from './chat-fixture';
import { shot } from './shots';

test('a toast stays clear of the composer at 1280×800', async ({ page, startHarbor }) => {
  test.setTimeout(180_000);
  const harbor = await startHarbor({ script: [] });
  await openChat(page, harbor);
  await page.setViewportSize({ width: 1280, height: 800 });
  // A server added to harbor.json by hand while the chat is open, whose program does not exist: it fails, and says so.
  const config = JSON.parse(readFileSync(harbor.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
  config.mcpServers.broken = { command: '/nonexistent/harbor-test-program', trusted: true };
  writeFileSync(harbor.configPath, JSON.stringify(config, null, 2));
  const toast = page.getByRole('region', { name: 'Notifications' }).locator('.toast').filter({ hasText: 'broken could not start' });
  await expect(toast).toBeVisible({ timeout: 30_000 });
  await shot(page, '8');
  const composer = page.getByRole('form', { name: 'Write a message' });
  const send = page.getByRole('button', { name: /^Send/ });
  await expect(send).toBeVisible();
  const t = (await toast.boundingBox())!;
  for (const box of [(await composer.boundingBox())!, (await send.boundingBox())!]) {
    const overlaps = t.x < box.x + box.width && box.x < t.x + t.width && t.y < box.y + box.height && box.y < t.y + t.height;
    expect(overlaps, `toast ${JSON.stringify(t)} vs ${JSON.stringify(box)}`).toBe(false);
  }
  // Still reachable: the toast is on screen.
  expect(t.y).toBeGreaterThanOrEqual(0);
});
