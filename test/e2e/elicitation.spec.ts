/**
 * A server asks the person during a chat tool call (MRTR input_required → elicitation.request with the call): the
 * dialog says which server asks and why, the form comes from its schema, the answer reaches the
 * tool, which completes; a declined question reaches it as a decline. Debian Chromium,
 * `harbor web`, real Host, the feature fixture's ask_name tool, the scripted model.
 */
import { collectErrors, consentDialog, expect, openChat, openToolCard, screenshotBoth, send, test } from './chat-fixture';

test('a form elicitation during a tool call: filled → the tool completes; declined → the tool hears it', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({
    script: [
      { toolCalls: [{ name: 'feature__ask_name', arguments: {} }] },
      (request) => ({ text: `The tool said: ${request.toolResults.at(-1)?.content ?? ''}` }),
      { toolCalls: [{ name: 'feature__ask_name', arguments: {} }] },
      (request) => ({ text: `Second time the tool said: ${request.toolResults.at(-1)?.content ?? ''}` }),
    ],
  });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'Greet me');
  const dialog = consentDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Allow feature to run “ask_name”?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  // The server's question, shown with the call it belongs to.
  const question = page.getByRole('dialog', { name: '“feature” asks for your input' });
  await expect(question).toBeVisible();
  await expect(question.getByText('What is your name?')).toBeVisible();
  await expect(question).toContainText('while running “ask_name” in the chat');
  const name = question.getByRole('textbox', { name: /Name/ });
  await expect(name).toBeFocused();
  // Required is checked inline before anything is sent.
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question.getByText('Required.')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('Ada Lovelace');
  await screenshotBoth(page, 'elicitation-dialog', testInfo);
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toBeHidden();

  const card = page.getByRole('article', { name: 'Tool call feature › ask_name' }).first();
  await expect(card.getByText('Done', { exact: true })).toBeVisible();
  await openToolCard(page, 'Tool call feature › ask_name');
  await expect(card.getByText('Hello Ada Lovelace', { exact: true })).toBeVisible();
  await expect(page.getByText('The tool said: Hello Ada Lovelace')).toBeVisible();

  // Declined: the tool gets a decline (not an empty answer) and says so.
  await send(page, 'Again');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('Second time the tool said: declined')).toBeVisible();
  expect(errors).toEqual([]);
});
