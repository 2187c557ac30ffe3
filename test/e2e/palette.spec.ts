/**
 * The command palette and the keyboard shortcuts, in Chromium on `harbor web` with the feature
 * fixture and the scripted model: Ctrl-K opens it (even from the composer), a fuzzy search finds a
 * tool and opens its run form, a conversation opens, a Settings section opens, the shortcuts are
 * listed, Escape gives focus back; Ctrl-N starts a new chat; no other shortcut fires while the
 * person types. Axe finds nothing on the open palette in either theme.
 */
import type { Page } from '@playwright/test';
import { collectErrors, expect, openChat, screenshotSizes, send, test } from './chat-fixture';
import { expectNoAxeViolations } from './servers-fixture';

function palette(page: Page) {
  return page.getByRole('dialog', { name: 'Command palette' });
}

/** Opens the palette with Ctrl-K and searches it; returns the dialog. */
async function search(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  const dialog = palette(page);
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole('combobox');
  await expect(box).toBeFocused();
  await box.fill(text);
  return dialog;
}

/** The match the palette has highlighted (the one Enter opens). */
function highlighted(page: Page) {
  return palette(page).locator('[role="option"][aria-selected="true"]');
}

test('Ctrl-K finds tools, conversations and settings by fuzzy text; shortcuts work but not while typing', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ script: [{ text: 'Dig in spring.' }, { text: 'Sunny, 24 degrees.' }] });
  const errors = collectErrors(page);
  await openChat(page, harbor);
  const history = page.getByRole('list', { name: 'Conversation history' });
  await send(page, 'Plan the vegetable garden');
  await expect(page.getByText('Dig in spring.')).toBeVisible();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await send(page, 'Weather in Lisbon');
  await expect(page.getByText('Sunny, 24 degrees.')).toBeVisible();
  await expect(history.getByRole('button', { name: /Weather in Lisbon/ })).toHaveAttribute('aria-current', 'true');

  // While typing in the composer, only the palette's shortcut fires.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('half a thought');
  for (const key of ['Control+2', 'Control+Shift+O', 'Control+n', 'Control+9']) await composer.press(key);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
  expect(new URL(page.url()).hash).toBe('');
  await expect(composer).toHaveValue('half a thought');
  await expect(history.getByRole('button', { name: /Weather in Lisbon/ })).toHaveAttribute('aria-current', 'true');
  await composer.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).getByRole('combobox')).toBeFocused();
  await expect(palette(page).getByRole('option', { name: /^echo feature/ })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotSizes(page, 'palette', testInfo);

  // Escape closes it and focus goes back to the composer.
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  await expect(composer).toBeFocused();
  await composer.fill('');

  // A tool by fuzzy text (a letter missing), opened with Enter: the Tools page shows its run form.
  let dialog = await search(page, 'eco');
  await expect(highlighted(page)).toHaveAccessibleName(/^echo feature/);
  await expect(dialog.getByRole('group', { name: 'Tools' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Run echo/ })).toBeVisible({ timeout: 30_000 });

  // A conversation, reached with the arrow keys and opened from another page.
  dialog = await search(page, 'vegtable gardn');
  const box = dialog.getByRole('combobox');
  const conversation = dialog.getByRole('group', { name: 'Conversations' }).getByRole('option', { name: /Plan the vegetable garden/ });
  await expect(conversation).toBeVisible();
  await page.keyboard.press('End');
  await expect(box).toHaveAttribute('aria-activedescendant', (await dialog.getByRole('option').last().getAttribute('id'))!);
  await page.keyboard.press('Home');
  await expect(box).toHaveAttribute('aria-activedescendant', (await dialog.getByRole('option').first().getAttribute('id'))!);
  while ((await highlighted(page).getAttribute('id')) !== (await conversation.getAttribute('id'))) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
  await expect(history.getByRole('button', { name: /Plan the vegetable garden/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText('Dig in spring.')).toBeVisible();

  // The other conversation, by mouse, while the Chat page is open.
  dialog = await search(page, 'lisbon');
  await dialog.getByRole('option', { name: /Weather in Lisbon/ }).click();
  await expect(history.getByRole('button', { name: /Weather in Lisbon/ })).toHaveAttribute('aria-current', 'true');

  // A server's details.
  await search(page, 'featur');
  await palette(page).getByRole('group', { name: 'Servers' }).getByRole('option', { name: /^feature/ }).click();
  await expect(page.getByRole('article', { name: 'feature', exact: true })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/servers/feature');

  // A Settings section.
  await search(page, 'timeouts');
  await expect(highlighted(page)).toHaveAccessibleName(/^Settings: Timeouts/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/settings/timeouts');
  await expect(page.getByRole('heading', { level: 2, name: 'Timeouts' })).toBeFocused();

  // Ctrl-N (outside a text field): a new chat, from any page.
  await page.keyboard.press('Control+n');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
  await expect(page.getByRole('button', { name: 'New conversation' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('A new conversation')).toBeVisible();
  // Its alternative that a browser tab delivers (Chromium keeps Ctrl-N for a new window): from another conversation.
  await history.getByRole('button', { name: /Weather in Lisbon/ }).click();
  await expect(page.getByRole('button', { name: 'New conversation' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('heading', { level: 1, name: 'Chat' }).focus();
  await page.keyboard.press('Control+Shift+O');
  await expect(page.getByRole('button', { name: 'New conversation' })).toHaveAttribute('aria-pressed', 'true');

  // Ctrl-1…9: the views in the navigation's order.
  await page.getByRole('heading', { level: 1, name: 'Chat' }).focus();
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  // The ninth entry since Skills joined the navigation (Settings is the tenth).
  await page.keyboard.press('Control+9');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();

  // The shortcuts are listed: each command with its keys, and a "Keyboard shortcuts" entry.
  await search(page, 'keyboard shortcuts');
  await expect(highlighted(page)).toHaveAccessibleName(/^Keyboard shortcuts/);
  await page.keyboard.press('Enter');
  const shortcuts = palette(page).getByRole('listbox', { name: 'Keyboard shortcuts' });
  await expect(shortcuts.getByRole('option', { name: /^New chat/ })).toContainText('Ctrl+N');
  await expect(shortcuts.getByRole('option', { name: /^Go to Servers/ })).toContainText('Ctrl+2');
  await expect(shortcuts.getByRole('option', { name: /^Command palette/ })).toContainText('Ctrl+K');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');

  // The shell's button opens it too, and focus comes back to the button.
  const button = page.getByRole('button', { name: /^Search/ });
  await button.click();
  await expect(palette(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(button).toBeFocused();
  expect(errors).toEqual([]);
});
