/**
 * Files from the person's computer: picked, dropped on the composer or pasted; images go to a
 * model that takes them as images, text files as text; what cannot go is refused at once, naming
 * the file and why. In browser mode they travel over the WebSocket, within a cap. Real Host,
 * scripted model, Chromium.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { FILE_LIMITS } from '../../preload/contract';
import { PNG_1X1 } from '../fixtures/files/images';
import { expect, openChat, screenshotSizes, send, test } from './chat-fixture';

interface TestFile {
  readonly name: string;
  readonly mimeType: string;
  readonly base64: string;
}

/** Drops files on an element, as a drag from the desktop does. */
async function dropFiles(page: Page, target: Locator, files: readonly TestFile[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    return data;
  }, files);
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Pastes a file into the message box, as pasting a copied image does. */
async function pasteFile(page: Page, file: TestFile): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).evaluate((box, f) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, file);
}

/** A file of `bytes` bytes that starts as a PNG does (the Host checks the signature). */
function pngOfSize(bytes: number): string {
  const buffer = Buffer.alloc(bytes, 7);
  Buffer.from(PNG_1X1, 'base64').copy(buffer);
  return buffer.toString('base64');
}

const userParts = (messages: readonly Record<string, unknown>[]) =>
  messages.filter((m) => m.role === 'user').flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; text?: string; image_url?: { url: string } }[]) : []));

test('picked, dropped and pasted files go with the message: images as images, text as text', async ({ page, startHarbor }, testInfo) => {
  const harbor = await startHarbor({ model: { vision: true }, script: [{ text: 'A dot, another dot, and your shopping list.' }] });
  await openChat(page, harbor);
  const composer = page.getByRole('form', { name: 'Write a message' });

  // Picked with the file picker.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Attach files' }).click()]);
  await chooser.setFiles([{ name: 'shopping.md', mimeType: 'text/markdown', buffer: Buffer.from('# Shopping\n- milk\n- bread') }]);
  // Dropped on the composer, and pasted into the box.
  await dropFiles(page, composer, [{ name: 'dot.png', mimeType: 'image/png', base64: PNG_1X1 }]);
  await pasteFile(page, { name: 'image.png', mimeType: 'image/png', base64: PNG_1X1 });
  const chips = page.getByRole('list', { name: 'Files for the next message' });
  await expect(chips.getByRole('listitem')).toHaveCount(3);
  await expect(chips).toContainText('shopping.md');
  await expect(chips.getByRole('img', { name: 'Image dot.png' })).toBeVisible();
  await chips.getByRole('button', { name: 'Remove image.png' }).click();
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([]);
  await screenshotSizes(page, 'chat-files-composer', testInfo, [[1000, 700]]);

  await send(page, 'What are these?');
  await expect(page.getByText('A dot, another dot, and your shopping list.')).toBeVisible();
  const parts = userParts(harbor.model.requests[0]!.messages);
  expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'text', 'image_url']);
  expect(parts[0]!.text).toBe('What are these?');
  expect(parts[1]!.text).toContain('The person attached the file "shopping.md" (its content follows):\n# Shopping\n- milk\n- bread');
  expect(parts[2]!.text).toContain('The person attached the image "dot.png".');
  expect(parts[3]!.image_url!.url).toBe(`data:image/png;base64,${PNG_1X1}`);
  // The sent message shows its files; the composer is empty again.
  const sent = page.getByRole('list', { name: 'Attached files' });
  await expect(sent).toContainText('shopping.md');
  await expect(sent.getByRole('img', { name: 'Image dot.png' })).toBeVisible();
  await expect(chips).toHaveCount(0);
  await screenshotSizes(page, 'chat-files-sent', testInfo, [[1000, 700]]);
});

test('what cannot go is refused at once, naming the file and why; a big image still travels over the socket', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({ model: { vision: true }, script: [{ text: 'Got the big one.' }] });
  await openChat(page, harbor);
  const composer = page.getByRole('form', { name: 'Write a message' });
  const refusal = composer.getByRole('alert');

  await dropFiles(page, composer, [
    { name: 'report.pdf', mimeType: 'application/pdf', base64: Buffer.from('%PDF-1.7').toString('base64') },
    { name: 'latin1.txt', mimeType: 'text/plain', base64: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64') },
    { name: 'huge.png', mimeType: 'image/png', base64: pngOfSize(FILE_LIMITS.maxImageBytes + 1000) },
  ]);
  await expect(refusal).toContainText('report.pdf: Harbor attaches images (PNG, JPEG, GIF, WebP) and text files, and this is application/pdf.');
  await expect(refusal).toContainText('latin1.txt: it is not UTF-8 text.');
  await expect(refusal).toContainText('huge.png: images may be up to 3.8 MB, and this one is 3.8 MB.');
  await expect(page.getByRole('list', { name: 'Files for the next message' })).toHaveCount(0);
  await refusal.getByRole('button', { name: 'Dismiss' }).click();
  await expect(refusal).toHaveCount(0);

  // 1.5 MB: more than a command frame used to be allowed; the message goes through whole.
  const big = pngOfSize(1_500_000);
  await dropFiles(page, composer, [{ name: 'photo.png', mimeType: 'image/png', base64: big }]);
  await expect(page.getByRole('list', { name: 'Files for the next message' })).toContainText('1.5 MB');
  await send(page, 'Look at this');
  await expect(page.getByText('Got the big one.')).toBeVisible();
  expect(userParts(harbor.model.requests[0]!.messages).find((p) => p.type === 'image_url')!.image_url!.url).toBe(`data:image/png;base64,${big}`);
});

test('a model that does not take images: an image is refused, saying so; a text file still goes', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({ script: [{ text: 'Read it.' }] });
  await openChat(page, harbor);
  const composer = page.getByRole('form', { name: 'Write a message' });
  await dropFiles(page, composer, [
    { name: 'dot.png', mimeType: 'image/png', base64: PNG_1X1 },
    { name: 'todo.txt', mimeType: 'text/plain', base64: Buffer.from('call Ada').toString('base64') },
  ]);
  await expect(composer.getByRole('alert')).toHaveText(/dot\.png: the model scripted does not take images\. Choose one that does in Settings\./);
  await expect(page.getByRole('list', { name: 'Files for the next message' }).getByRole('listitem')).toHaveCount(1);
  await send(page, 'What is on my list?');
  await expect(page.getByText('Read it.')).toBeVisible();
  expect(JSON.stringify(harbor.model.requests[0]!.messages)).toContain('call Ada');
});
