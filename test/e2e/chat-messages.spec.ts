/**
 * What a message offers: Copy (every message), Regenerate (the model's answer, run again from that
 * point), Edit (the person's message, sent again as a new version, the earlier one reachable by
 * ‹ 1/2 ›), code blocks with a language and Copy, quotes, model errors with Retry and Open
 * settings, and the last conversation reopening after a reload. Real Host, scripted model, Chromium.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { collectErrors, expect, openChat, screenshotSizes, send, test } from './chat-fixture';

/** What the model was sent last: the role and text of each message but the system prompt. */
function lastPrompt(requests: readonly { messages: readonly Record<string, unknown>[] }[]): string[] {
  return requests
    .at(-1)!
    .messages.filter((m) => m.role !== 'system')
    .map((m) => `${String(m.role)}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`);
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('Copy, Regenerate and Edit: every version stays reachable, the model gets the version shown, and a reload reopens it', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ text: 'Lisbon.' }, { text: 'Lisbon, on the Tagus.' }, { text: 'Madrid.' }, { text: 'About 3.3 million.' }] });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  await send(page, 'Capital of Portugal?');
  const first = page.locator('.msg--assistant').filter({ hasText: 'Lisbon.' });
  await expect(first).toBeVisible();

  // Copy: the model's words, and the person's.
  await first.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => clipboard(page)).toBe('Lisbon.');
  const question = page.locator('.msg--user').filter({ hasText: 'Capital of Portugal?' });
  await question.hover();
  await question.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => clipboard(page)).toBe('Capital of Portugal?');

  // Regenerate: the same question answered again; the model is not shown the old answer.
  await first.getByRole('button', { name: 'Regenerate' }).click();
  await expect(page.getByText('Lisbon, on the Tagus.')).toBeVisible();
  await expect(page.getByText('Lisbon.', { exact: true })).toHaveCount(0);
  expect(lastPrompt(harbor.model.requests)).toEqual(['user: Capital of Portugal?']);
  const versions = page.getByRole('group', { name: 'Versions of this message' });
  await expect(versions).toContainText('2/2');
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(page.getByText('Lisbon.', { exact: true })).toBeVisible();
  await expect(versions).toContainText('1/2');
  await versions.getByRole('button', { name: 'Next version' }).click();
  await expect(page.getByText('Lisbon, on the Tagus.')).toBeVisible();

  // Edit: the question changed and sent again, as a third version.
  await question.hover();
  await question.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('form', { name: 'Edit your message' });
  await editor.getByRole('textbox', { name: 'Edited message' }).fill('Capital of Spain?');
  await editor.getByRole('textbox', { name: 'Edited message' }).press('Enter');
  await expect(page.getByText('Madrid.')).toBeVisible();
  await expect(page.locator('.msg__bubble')).toHaveText(['Capital of Spain?']);
  await expect(versions).toContainText('3/3');
  expect(lastPrompt(harbor.model.requests)).toEqual(['user: Capital of Spain?']);
  await screenshotSizes(page, 'chat-versions', testInfo);
  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);

  // The next message continues the version shown.
  await send(page, 'How many people live there?');
  await expect(page.getByText('About 3.3 million.')).toBeVisible();
  expect(lastPrompt(harbor.model.requests)).toEqual(['user: Capital of Spain?', 'assistant: Madrid.', 'user: How many people live there?']);

  // A reload lands on the same conversation, on the same version.
  await page.reload();
  await expect(page.getByText('About 3.3 million.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Versions of this message' })).toContainText('3/3');
  await expect(page.getByRole('list', { name: 'Conversation history' }).getByRole('button', { name: /Capital of Portugal/ })).toHaveAttribute('aria-current', 'true');
  expect(errors).toEqual([]);
});

test('code blocks are highlighted, say their language and copy; quotes stand apart', async ({ page, startHarbor }, testInfo) => {
  const code = 'def greet(name: str) -> str:\n    return f"Hello, {name}!"';
  const harbor = await startHarbor({
    script: [{ text: `Like this:\n\n\`\`\`python\n${code}\n\`\`\`\n\n> Names are **strings**.\n\nAnd a shell line:\n\n\`\`\`\npip install greet\n\`\`\`` }],
  });
  await openChat(page, harbor);
  await send(page, 'Show me a greeting in Python');
  const blocks = page.locator('.code-block');
  await expect(blocks).toHaveCount(2);
  const python = blocks.first();
  await expect(python.locator('.code-block__lang')).toHaveText('python');
  await expect(python.locator('.token.keyword').first()).toHaveText('def');
  await expect(python.locator('.token.string').first()).toContainText('Hello');
  await expect(blocks.nth(1).locator('.code-block__lang')).toHaveText('text');
  await python.getByRole('button', { name: 'Copy code' }).click();
  await expect.poll(() => clipboard(page)).toBe(code);
  await expect(python.locator('.code-block__status')).toHaveText('Copied');
  // Tokens are coloured (not the text colour), and the quote has its own bar.
  const colours = await python.evaluate((el) => [getComputedStyle(el.querySelector('.token.keyword')!).color, getComputedStyle(el.querySelector('code')!).color]);
  expect(colours[0]).not.toBe(colours[1]);
  const quote = page.locator('.md blockquote');
  await expect(quote).toHaveText('Names are strings.');
  expect(await quote.evaluate((el) => getComputedStyle(el).borderLeftStyle)).toBe('solid');
  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);
  await screenshotSizes(page, 'chat-code', testInfo, [[1000, 700]]);
});

test('a model error is a card with Retry (which answers again) and Open settings (the model section)', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ error: { status: 503, message: 'The model is overloaded' } }, { text: 'Back again: hello!' }] });
  await openChat(page, harbor);
  await send(page, 'hello?');
  const card = page.getByRole('alert', { name: 'The model failed' });
  await expect(card).toContainText('The model is overloaded');
  await expect(card).toContainText('MODEL_ERROR');
  await expect(card.getByRole('link', { name: 'Open settings' })).toHaveAttribute('href', '#/settings/model');
  // Said once: no grey note repeating it.
  await expect(page.locator('.msg--note')).toHaveCount(0);
  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);
  await screenshotSizes(page, 'chat-model-error', testInfo, [[1000, 700]]);

  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Back again: hello!')).toBeVisible();
  await expect(card).toBeHidden();
  expect(lastPrompt(harbor.model.requests)).toEqual(['user: hello?']);
  // The failed try is kept as the first version.
  await expect(page.getByRole('group', { name: 'Versions of this message' })).toContainText('2/2');

  await page.getByRole('group', { name: 'Versions of this message' }).getByRole('button', { name: 'Previous version' }).click();
  await page.getByRole('alert', { name: 'The model failed' }).getByRole('link', { name: 'Open settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(/#\/settings\/model$/);
});
