/**
 * Server and model text is untrusted. A real server gives a tool a description holding
 * `<img src=x onerror=…>`, a `<script>` and a `javascript:` link; the tool returns the same in its
 * result, and the model writes it in its answer. Everywhere it shows (consent dialog, tool card,
 * Markdown) it must be inert: no element with an on* attribute, no javascript: URL, no script,
 * nothing fetched from elsewhere, the page's strict CSP never even triggered.
 */
import type { Page } from '@playwright/test';
import { collectErrors, consentDialog, contextMeter, expect, openChat, openToolCard, send, test } from './chat-fixture';

const PAYLOAD = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> [click me](javascript:window.__pwned=3) <a href="javascript:window.__pwned=4">raw link</a>';

/** Every on* attribute, script URL and inline script in the app, and whether anything ran. */
async function liveMarkup(page: Page) {
  return page.evaluate(() => {
    const root = document.getElementById('root')!;
    const bad: string[] = [];
    for (const el of [root, ...root.querySelectorAll('*'), ...document.querySelectorAll('dialog, dialog *')]) {
      for (const attr of [...el.attributes]) {
        const value = attr.value.trim().toLowerCase();
        if (attr.name.toLowerCase().startsWith('on')) bad.push(`${el.tagName}[${attr.name}]`);
        if (['href', 'src', 'action', 'formaction'].includes(attr.name) && /^(javascript|vbscript|data:text)/.test(value)) bad.push(`${el.tagName}[${attr.name}=${attr.value}]`);
      }
    }
    return {
      bad,
      scripts: document.querySelectorAll('#root script, dialog script').length,
      images: [...document.querySelectorAll('#root img, dialog img')].map((img) => img.getAttribute('src')),
      pwned: (window as unknown as { __pwned?: number }).__pwned,
    };
  });
}

test('a hostile tool description, tool result and model answer render inert', async ({ page, startHarbor }) => {
  const harbor = await startHarbor({
    script: [
      { toolCalls: [{ name: 'feature__mutate', arguments: { description: `Echo. ${PAYLOAD}` } }] },
      { text: 'Description set.' },
      { toolCalls: [{ name: 'feature__echo', arguments: { text: PAYLOAD } }] },
      { text: `Here it is: ${PAYLOAD} ![tracker](https://evil.example/pixel.png) [docs](https://example.com/)` },
    ],
  });
  const errors = collectErrors(page);
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(harbor.url).origin) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  await openChat(page, harbor);
  const dialog = consentDialog(page);

  // The server gives echo a hostile description.
  const meter = contextMeter(page);
  const before = await meter.getAttribute('title');
  await send(page, 'set the description');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByText('Description set.')).toBeVisible();
  await expect(meter).not.toHaveAttribute('title', before!, { timeout: 15_000 });

  // The consent dialog shows it as the characters it is.
  await send(page, 'echo it');
  await expect(dialog.getByRole('heading', { name: 'Allow feature to run “echo”?' })).toBeVisible();
  await expect(dialog.locator('.consent__description')).toHaveText(`Echo. ${PAYLOAD}`);
  expect(await liveMarkup(page)).toEqual({ bad: [], scripts: 0, images: [], pwned: undefined });
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  // The result card and the model's Markdown answer.
  const card = page.getByRole('article', { name: 'Tool call feature › echo' });
  await expect(card.getByText('Done', { exact: true })).toBeVisible();
  await openToolCard(page, 'Tool call feature › echo');
  await expect(card.locator('.result__text')).toHaveText(PAYLOAD);
  const answer = page.locator('.msg--assistant').filter({ hasText: 'Here it is:' });
  await expect(answer).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(answer).toContainText('<script>window.__pwned=2</script>');
  await expect(answer).toContainText('[image: tracker]');
  await expect(answer.getByText('click me')).toBeVisible();
  expect(await answer.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/']);
  expect(await liveMarkup(page)).toEqual({ bad: [], scripts: 0, images: [], pwned: undefined });

  // Clicking the refused link does nothing; the page stays where it is.
  await answer.getByText('click me').click();
  await expect(page).toHaveURL(/#\/chat$|\/$|#\/?$/);
  expect(await liveMarkup(page)).toMatchObject({ pwned: undefined });
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});
