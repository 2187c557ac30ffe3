/**
 * Issue #31, item 10: on Tools, Resources and Prompts a server that is not ready is one compact
 * line — its name, its state, its last real error (or that it waits for the person's permission)
 * and one small action — never a big box on top of the page; a denied server says it was denied
 * and how to allow it. The ready server's catalog shows as before. Real Host, real fixture
 * servers (one that dies at startup, two nobody approved yet, one trusted), real Chromium.
 * With HARBOR_SHOTS_DIR set, the screens are saved there too (test/e2e/shots.ts).
 */
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { FEATURE_SERVER, FIXTURES, NODE, collectErrors, expect as baseExpect, expectNoAxeViolations, goTo, test } from './servers-fixture';
import { shot } from './shots';

test.setTimeout(240_000);
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({
  harborOptions: {
    registry: {
      mcpServers: {
        broken: { command: NODE, args: [join(FIXTURES, 'adversarial', 'crash-at-startup.mjs')], trusted: true },
        waiting: { command: NODE, args: [FEATURE_SERVER, '--name', 'waiting'] },
        denied: { command: NODE, args: [FEATURE_SERVER, '--name', 'denied'] },
        ready: { command: NODE, args: [FEATURE_SERVER, '--name', 'ready'], trusted: true },
      },
    },
  },
});

/** The not-ready servers' lines of the page open now. */
const notReady = (page: Page) => page.getByRole('list', { name: 'Servers not ready' });
const lineOf = (page: Page, name: string) => notReady(page).getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

/** One line: no taller than a small button row, whatever the page's width. */
async function expectOneLine(line: Locator): Promise<void> {
  await expect(line).toBeVisible();
  const box = await line.boundingBox();
  expect(box?.height ?? Infinity).toBeLessThanOrEqual(48);
}

async function expectCompactLines(page: Page, noun: string): Promise<void> {
  await expect(page.getByRole('region', { name: 'ready' }).getByRole('list', { name: `${noun} of ready` })).toBeVisible();
  await shot(page, `10-${noun.toLowerCase()}`);
  await expect(notReady(page).getByRole('listitem')).toHaveCount(3);
  const broken = lineOf(page, 'broken');
  await expect(broken).toContainText('missing config FOO');
  const waiting = lineOf(page, 'waiting');
  await expect(waiting).toContainText('waiting for your permission to start');
  await expect(waiting.getByRole('button', { name: 'Review the launch of waiting' })).toBeVisible();
  const denied = lineOf(page, 'denied');
  await expect(denied).toContainText('You did not allow launching');
  await expect(denied.getByRole('button', { name: 'Start denied' })).toBeVisible();
  for (const line of [broken, waiting, denied]) await expectOneLine(line);
  // No box on top of the page: the not-ready servers say it in their lines only.
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('button', { name: /^Allow launch/ })).toHaveCount(0);
}

test('10: a broken, a waiting and a denied server are one line each on Tools, Resources and Prompts; the ready one shows its catalog', async ({ page, harbor }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(harbor.url);
  // The restart's question: two servers waiting. Deny one, put the other aside.
  const sheet = page.getByRole('dialog', { name: 'Servers waiting to start' });
  await expect(sheet).toBeVisible();
  await sheet.getByRole('button', { name: 'Deny denied' }).click();
  await expect(sheet.getByRole('list', { name: 'Waiting to start' }).getByRole('listitem')).toHaveCount(1);
  await sheet.getByRole('button', { name: 'Later' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await goTo(page, 'Tools');
  await expectCompactLines(page, 'Tools');
  await expectNoAxeViolations(page);

  await goTo(page, 'Resources');
  await expectCompactLines(page, 'Resources');

  await goTo(page, 'Prompts');
  await expectCompactLines(page, 'Prompts');

  // One server picked: the same one line, not a box.
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption('denied');
  await expect(notReady(page).getByRole('listitem')).toHaveCount(1);
  await expectOneLine(lineOf(page, 'denied'));
  await expect(lineOf(page, 'denied')).toContainText('Start it to be asked again');
  await shot(page, '10-picked-denied');
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption('');

  // The waiting server's action brings its question back.
  await lineOf(page, 'waiting').getByRole('button', { name: 'Review the launch of waiting' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});
