/**
 * A chat's approvals are part of the conversation: a card in the transcript next to the call it is
 * about (Allow once / Allow in this conversation / Always allow / Deny, with the same details as the
 * dialog), tied to its conversation — after a reload it shows in its own conversation only, never
 * over another — and the call's line tells the wait for the person apart from the run time.
 * Real Host, the feature fixture, the scripted model.
 */
import AxeBuilder from '@axe-core/playwright';
import { collectErrors, expect, openChat, send, test } from './chat-fixture';
import { shot } from './shots';

test('the approval is a card in its own conversation, survives a reload there only, and the chip tells wait from run', async ({ page, startHarbor }) => {
  test.setTimeout(240_000); // axe on a shared, loaded machine
  const harbor = await startHarbor({
    script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'approve me inline' } }] }, { text: 'Echoed after the approval.' }],
  });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'echo approve me inline');

  const call = page.getByRole('article', { name: 'Tool call feature › echo' });
  await expect(call.getByText('Awaiting your consent')).toBeVisible({ timeout: 20_000 });
  await shot(page, '6');
  // No modal in a chat: the question is a card inside the transcript, with the call.
  const messages = page.getByRole('region', { name: 'Messages' });
  const approval = messages.getByRole('group', { name: 'Allow feature to run “echo”?' });
  await expect(approval).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(approval.getByText('Echo the text back.')).toBeVisible();
  await expect(approval.getByText('"text": "approve me inline"')).toBeVisible();
  await expect(approval.getByText('The model, in a conversation')).toBeVisible();
  // The choices the Host offers, as the dialog names them (echo may change things: no "this conversation").
  await expect(approval.getByRole('button')).toHaveText(['Deny', 'Allow once', 'Always allow']);
  expect((await new AxeBuilder({ page }).include('.consent-card').analyze()).violations).toEqual([]);

  // Another, empty conversation, then a reload: the question is not shown there…
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('scripted');
  const history = page.getByRole('list', { name: 'Conversation history' });
  await expect(history.getByRole('button', { name: /echo approve me inline/ })).toBeVisible();
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await expect(page.getByText('A new conversation')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Allow feature to run “echo”?' })).toHaveCount(0);

  // …but in its own conversation, answered there.
  await history.getByRole('button', { name: /echo approve me inline/ }).click();
  await expect(approval).toBeVisible({ timeout: 20_000 });
  await approval.getByRole('button', { name: 'Allow once', exact: true }).click();
  await expect(page.getByText('Echoed after the approval.')).toBeVisible({ timeout: 20_000 });
  await expect(approval).toHaveCount(0);

  // The wait for the person is not run time: "waited 1 min 3 s · ran 4 ms", never one "Done 1 min 3 s".
  const time = call.locator('.tool-card__time');
  await expect(time).toHaveText(/^waited .+ · ran .+$/);
  const [, waited, ran] = /^waited (.+) · ran (.+)$/.exec((await time.textContent()) ?? '')!;
  expect(millis(waited!)).toBeGreaterThan(millis(ran!));
  await shot(page, '6-done');
  expect(errors).toEqual([]);
});

/** "120 ms", "3.4 s", "2 min 5 s" as milliseconds. */
function millis(text: string): number {
  const m = /^(?:(\d+) min )?(?:([\d.]+) (ms|s))$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1] ?? 0) * 60_000 + Number(m[2]) * (m[3] === 'ms' ? 1 : 1000);
}
