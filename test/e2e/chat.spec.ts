/**
 * The Chat view end to end: Debian Chromium on `harbor web`, a real Host, the feature fixture and
 * the bundled notes server as child processes, the scripted model on 127.0.0.1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { collectErrors, consentDialog, expect, openChat, openToolCard, screenshotBoth, send, test } from './chat-fixture';
import { expectNoAxeViolations } from './servers-fixture';

test('the model calls a tool → consent → allow once → result card → final answer; the conversation exports and renames', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({
    script: [
      { text: 'Let me **echo** that for you.', toolCalls: [{ name: 'feature__echo', arguments: { text: 'hello from the model' } }] },
      (request) => ({ text: `The tool answered: “${request.toolResults[0]?.content ?? ''}”. [Docs](https://example.com/docs)` }),
    ],
  });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'Please echo hello');

  const dialog = consentDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Allow feature to run “echo”?' })).toBeVisible();
  await expect(dialog.getByText('Echo the text back.')).toBeVisible();
  await expect(dialog.getByText('"text": "hello from the model"')).toBeVisible();
  // A chat's question is a card in the transcript, with the call (it takes no focus: the person may be typing).
  await expect(page.getByRole('region', { name: 'Messages' }).getByRole('group', { name: 'Allow feature to run “echo”?' })).toBeVisible();
  // While the question waits the call's card says why the turn waits.
  const card = page.getByRole('article', { name: 'Tool call feature › echo' });
  await expect(card.getByText('Awaiting your consent')).toBeVisible();
  await screenshotBoth(page, 'consent-dialog', testInfo);

  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Done', { exact: true })).toBeVisible();
  await openToolCard(page, 'Tool call feature › echo');
  await expect(card.getByText('hello from the model', { exact: true })).toBeVisible();
  await expect(card.getByText('You allowed it once.')).toBeVisible();
  await expect(page.getByText('The tool answered: “hello from the model”.')).toBeVisible();
  // The model got the tool's real result.
  expect(harbor.model.requests[1]!.toolResults[0]!.content).toBe('hello from the model');
  await screenshotBoth(page, 'chat-tool-card', testInfo);

  // The conversation is in the list; export it (offered as a download), then rename it.
  await expect(page.getByRole('list', { name: 'Conversation history' }).getByRole('button', { name: /Please echo hello/ })).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Conversation actions' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export Markdown' }).click()]);
  expect(download.suggestedFilename()).toBe('please-echo-hello.md');
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(exported).toContain('**Tool call** `feature › echo`');
  await page.getByRole('button', { name: 'Conversation actions' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Conversation title' }).fill('Echo test');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('list', { name: 'Conversation history' }).getByRole('button', { name: /Echo test/ })).toBeVisible();

  // A link in the answer is checked before it opens outside the app.
  await page.getByRole('link', { name: 'Docs' }).click();
  const check = page.getByRole('dialog', { name: 'Open this link in your browser?' });
  await expect(check.locator('mark')).toHaveText('example.com');
  await expectNoAxeViolations(page, 'dialog[open]');
  await check.getByRole('button', { name: 'Cancel' }).click();
  expect(errors).toEqual([]);
});

test('deny: the model is told the person said no, and answers', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({
    script: [
      { toolCalls: [{ name: 'feature__echo', arguments: { text: 'my secret plans' } }] },
      (request) => ({ text: request.toolResults[0]?.content === 'The user denied this call.' ? 'Understood — I will not send that.' : 'Unexpected.' }),
    ],
  });
  await openChat(page, harbor);
  await send(page, 'Send my plans');
  const dialog = consentDialog(page);
  await expect(dialog.getByText('"text": "my secret plans"')).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  const card = page.getByRole('article', { name: 'Tool call feature › echo' });
  await expect(card.getByText('Denied', { exact: true })).toBeVisible();
  await expect(page.getByText('Understood — I will not send that.')).toBeVisible();
  expect(harbor.model.requests[1]!.toolResults[0]!.content).toBe('The user denied this call.');
});

test('a slow tool shows progress, and Stop cancels it: the server sees the cancellation', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({
    script: [{ toolCalls: [{ name: 'feature__slow', arguments: { steps: 200, delayMs: 100 } }] }, { text: 'never asked' }],
  });
  await openChat(page, harbor);
  await send(page, 'Count slowly');
  const card = page.getByRole('article', { name: 'Tool call feature › slow' });
  // slow is read-only on a trusted server: it runs without asking.
  const bar = card.getByRole('progressbar', { name: 'Progress of slow' });
  await expect(card.getByText(/^step \d+\/200$/)).toBeVisible({ timeout: 15_000 });
  await expect(bar).toHaveAttribute('max', '200');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(page.getByText('Stopped by the person.').first()).toBeVisible();
  await expect.poll(() => (existsSync(harbor.eventsFile) ? readFileSync(harbor.eventsFile, 'utf8') : ''), { timeout: 10_000 }).toMatch(/^cancelled /m);
  expect(harbor.model.requests).toHaveLength(1);
});

test('attach a resource: the person picks it, its text goes to the model with the message', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({ script: [{ text: 'It greets you from the fixture.' }] });
  await openChat(page, harbor);
  await page.getByRole('button', { name: 'Attach resource' }).click();
  const dialog = page.getByRole('dialog', { name: 'Attach a resource' });
  await dialog.getByRole('combobox', { name: 'Server' }).selectOption('feature');
  await dialog.getByRole('button', { name: 'Attach Hello' }).click();
  await expect(page.getByRole('list', { name: 'Attachments for the next message' })).toContainText('Hello');
  await send(page, 'What does this say?');
  await expect(page.getByText('It greets you from the fixture.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Attached resources' })).toContainText('fixture://hello');
  const user = JSON.stringify(harbor.model.requests[0]!.messages.filter((m) => m.role === 'user'));
  expect(user).toContain('What does this say?');
  expect(user).toContain('Hello from the feature fixture.');
});

test('run a prompt as a slash command, with the server’s completion suggestions', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({ notes: true, script: [{ text: 'There are no notes to summarize yet.' }] });
  await openChat(page, harbor);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/notes.sum');
  await expect(page.getByRole('option', { name: /\/notes\.summarize_notes/ })).toBeVisible();
  await box.press('Enter');
  const dialog = page.getByRole('dialog', { name: '/notes.summarize_notes' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'dialog[open]');
  await dialog.getByRole('textbox', { name: /style/ }).fill('b');
  const suggestions = dialog.getByRole('group', { name: 'Suggestions for style' });
  await expect(suggestions.getByRole('button')).toHaveText(['brief', 'bullet-points']);
  await suggestions.getByRole('button', { name: 'bullet-points' }).click();
  await dialog.getByRole('button', { name: 'Use prompt' }).click();
  await expect(box).toHaveValue(/^Summarize these notes \(style: bullet-points\):/);
  await box.press('Enter');
  await expect(page.getByText('There are no notes to summarize yet.')).toBeVisible();
  expect(JSON.stringify(harbor.model.requests[0]!.messages)).toContain('Summarize these notes (style: bullet-points)');
});
