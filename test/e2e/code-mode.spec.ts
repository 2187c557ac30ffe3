/**
 * Code mode end to end: Debian Chromium on `harbor web`, a real Host, the feature fixture as a
 * child process, the scripted model writing a run_code script. The code card shows the script,
 * each call of it live (the one that needs consent waits for the dialog), the output and the
 * result; Stop on the card ends the script and cancels the call in flight.
 */
import { existsSync, readFileSync } from 'node:fs';
import { collectErrors, consentDialog, expect, openChat, screenshotBoth, send, test } from './chat-fixture';

const SCRIPT = `const { sum } = await tools.feature.add({ a: 2, b: 3 });
const echoed = await tools.feature.echo({ text: 'the sum is ' + sum });
console.log(echoed);
return { sum, echoed };`;

test('a chat turn with run_code shows the code card with its calls, their consent, the output and the result', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({
    script: [
      { text: 'I will do it in one script.', toolCalls: [{ name: 'run_code', arguments: { code: SCRIPT } }] },
      (request) => ({ text: `Done: ${request.toolResults[0]?.content ?? ''}` }),
    ],
    extra: { chat: { codeMode: 'on' } },
  });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'Add 2 and 3, then echo the sum');

  const card = page.getByRole('article', { name: 'Script run_code' });
  await expect(card).toBeVisible();
  await expect(card.getByLabel('Script', { exact: true })).toContainText("await tools.feature.add({ a: 2, b: 3 });");
  await expect(card.locator('.code-view .token.keyword').first()).toHaveText('const');

  // add is read-only on a trusted server: it runs at once. echo asks, like a direct call.
  await expect(card.getByRole('listitem', { name: 'feature › add: Done' })).toBeVisible();
  const dialog = consentDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Allow feature to run “echo”?' })).toBeVisible();
  await expect(dialog.getByText('"text": "the sum is 5"')).toBeVisible();
  await expect(card.getByRole('listitem', { name: 'feature › echo: Awaiting your consent' })).toBeVisible();
  await screenshotBoth(page, 'code-card-consent', testInfo);
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  await expect(card.getByRole('listitem', { name: 'feature › echo: Done' })).toBeVisible();
  await expect(card.getByRole('listitem', { name: 'feature › echo: Done' }).getByText('You allowed it once.')).toBeVisible();
  await expect(card.getByText('Done', { exact: true }).first()).toBeVisible();
  await expect(card.getByRole('region', { name: 'Output of the script' })).toContainText('the sum is 5');
  await expect(card.getByRole('region', { name: 'Result of the script' })).toContainText('the sum is 5');
  await expect(page.getByText('Done: {"result":{"sum":5,"echoed":"the sum is 5"},"logs":["the sum is 5"]}')).toBeVisible();
  await screenshotBoth(page, 'code-card-done', testInfo);

  // After a reload the card is the same, from the stored conversation.
  await page.reload();
  await page.getByRole('list', { name: 'Conversation history' }).getByRole('button', { name: /Add 2 and 3/ }).click();
  const stored = page.getByRole('article', { name: 'Script run_code' });
  await expect(stored.getByRole('listitem', { name: 'feature › echo: Done' })).toBeVisible();
  await expect(stored.getByRole('region', { name: 'Result of the script' })).toContainText('the sum is 5');
  expect(errors).toEqual([]);
});

test('Stop on the code card ends the script and cancels its call in flight', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({
    script: [{ toolCalls: [{ name: 'run_code', arguments: { code: `console.log('counting'); return await tools.feature.slow({ steps: 200, delayMs: 100 });` } }] }, { text: 'never asked' }],
    extra: { chat: { codeMode: 'on' } },
  });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'count slowly');
  const card = page.getByRole('article', { name: 'Script run_code' });
  await expect(card.getByRole('listitem', { name: 'feature › slow: Running' })).toBeVisible();
  await card.getByRole('button', { name: 'Stop script' }).click();
  await expect(card.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(card.getByRole('listitem', { name: 'feature › slow: Cancelled' })).toBeVisible();
  await expect.poll(() => existsSync(harbor.eventsFile) && readFileSync(harbor.eventsFile, 'utf8').includes('cancelled')).toBe(true);
  expect(harbor.model.requests).toHaveLength(1);
  expect(errors).toEqual([]);
});
