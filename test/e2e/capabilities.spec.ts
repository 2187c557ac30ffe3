/**
 * What server-everything 2026.8.31 asks of its host, in the app (Debian Chromium, `harbor web`,
 * the real Host, the scripted model): `trigger-sampling-request` opens the sampling review — the
 * person edits the request, approves, reads the model's answer, edits it and sends it — and the
 * tool returns the edited answer; `toggle-simulated-logging` fills the server's log view, where
 * the level filter, the search and the level the server sends work; both show in Activity.
 */
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { NODE, ROOT, allowCallsWithoutAsking, collectErrors, expect, expectNoAxeViolations, goTo, openServer, pickServer, runTool, screenshot, test } from './servers-fixture';
import { SIMULATED_LOG } from '../helpers/everything-logs';

const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let model: ScriptedModel;
test.beforeAll(async () => {
  model = await startScriptedModel({ script: [], repeatLast: false });
});
test.afterAll(async () => {
  await model.close();
});

test.use({
  harborOptions: {
    registry: { mcpServers: { everything: { command: NODE, args: [EVERYTHING, 'stdio'], trusted: true } } },
    // The model's address is known only once it listens.
    before: ({ configPath }) => {
      const file = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      writeFileSync(configPath, JSON.stringify({ ...file, model: model.modelConfig() }, null, 2));
    },
  },
});

/** The app, once server-everything is ready and its tools run without a consent dialog (consent has its own specs). */
async function openWithEverythingReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await goTo(page, 'Servers');
  await expect(page.getByRole('article', { name: 'everything' }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await allowCallsWithoutAsking(page, 'everything');
}

test('sampling: the person edits the request, approves, reads and edits the answer, and the server gets it', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  model.push({ text: 'The sea is blue because of the sky.' });
  await openWithEverythingReady(page, harbor.url);

  await goTo(page, 'Tools');
  await pickServer(page, 'everything');
  const run = await runTool(page, 'trigger-sampling-request', { prompt: 'Why is the sea blue?' });

  const review = page.getByRole('dialog', { name: '“everything” wants to ask the model' });
  await expect(review).toBeVisible();
  await expect(review).toContainText('asks Harbor to run the model openai-compatible:scripted');
  await expect(review.getByRole('textbox', { name: 'System prompt' })).toHaveValue('You are a helpful test server.');
  const message = review.getByRole('textbox', { name: 'Message 1 (user)' });
  await expect(message).toHaveValue('Resource trigger-sampling-request context: Why is the sea blue?');
  await message.fill('Why is the sea blue? One sentence.');
  await review.getByRole('textbox', { name: 'Longest answer, in tokens' }).fill('40');
  await screenshot(page, 'sampling-review-request', testInfo);
  await expectNoAxeViolations(page, 'dialog[open]');
  await review.getByRole('button', { name: 'Approve and run' }).click();

  const answer = page.getByRole('dialog', { name: "Send the model's answer to “everything”?" });
  await expect(answer).toBeVisible();
  const text = answer.getByRole('textbox', { name: "The model's answer" });
  await expect(text).toHaveValue('The sea is blue because of the sky.');
  await text.fill('The sea is blue (checked by a person).');
  await screenshot(page, 'sampling-review-answer', testInfo);
  await expectNoAxeViolations(page, 'dialog[open]');
  await answer.getByRole('button', { name: 'Send answer' }).click();
  await expect(answer).toBeHidden();

  await expect(run.getByRole('region', { name: 'Result' })).toContainText('The sea is blue (checked by a person).');
  const asked = model.requests.at(-1)!;
  expect(JSON.stringify(asked.messages)).toContain('Why is the sea blue? One sentence.');
  expect(asked.body.max_tokens ?? asked.body.max_completion_tokens).toBe(40);

  await goTo(page, 'Activity');
  await expect(page.getByRole('list', { name: 'Server events' })).toContainText(
    'everything asked the model openai-compatible:scripted (at most 40 tokens); its answer (38 characters) was sent back',
  );
  expect(errors).toEqual([]);
});

test('logging: log messages in the server\'s log view, filtered, searched, and the level it sends', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await openWithEverythingReady(page, harbor.url);
  await goTo(page, 'Tools');
  await pickServer(page, 'everything');
  const run = await runTool(page, 'toggle-simulated-logging');
  await expect(run.getByRole('region', { name: 'Result' })).toContainText('Started simulated, random-leveled logging');

  await goTo(page, 'Servers');
  const card = await openServer(page, 'everything');
  await card.getByRole('button', { name: 'Logs of everything' }).click();
  const logs = card.getByRole('list', { name: 'Log messages of everything' });
  await expect(logs.getByText(SIMULATED_LOG).first()).toBeVisible({ timeout: 15_000 });

  // Search: only what matches stays.
  await card.getByRole('searchbox', { name: 'Search' }).fill('no message says this');
  await expect(card.getByText('No log message matches.')).toBeVisible();
  await card.getByRole('searchbox', { name: 'Search' }).fill('message');
  await expect(logs.getByRole('listitem').first()).toBeVisible();
  // Level filter: "emergency and more severe" hides everything less severe.
  await card.getByRole('combobox', { name: 'Show' }).selectOption('emergency');
  for (const item of await logs.getByRole('listitem').all()) await expect(item).toContainText('emergency');
  await card.getByRole('combobox', { name: 'Show' }).selectOption('');

  // The level the server sends: saved in the registry, sent as logging/setLevel.
  await card.getByRole('combobox', { name: 'Level the server sends' }).selectOption('error');
  await expect(card.getByRole('combobox', { name: 'Level the server sends' })).toHaveValue('error');
  await expect.poll(() => (JSON.parse(readFileSync(harbor.configPath, 'utf8')) as { mcpServers: { everything: { logLevel?: string } } }).mcpServers.everything.logLevel).toBe('error');
  await card.getByText('Its stderr (last lines)').click();
  await screenshot(page, 'server-logs', testInfo);

  await goTo(page, 'Activity');
  await expect(page.getByRole('list', { name: 'Server events' })).toContainText(/everything logged \(\w+\): \w+[- ]level[- ]message/);
  await expect(page.getByRole('list', { name: 'Messages' }).getByText('logging/setLevel', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});
