/**
 * Every tool server-everything 2026.8.31 lists to Harbor, run from the app's Tools page (Debian
 * Chromium, `harbor web`, the real Host, the scripted model), over stdio and Streamable HTTP: each
 * answers, through the dialog it needs (a form, a web page, the sampling review) where it asks
 * something of the person. A subscribed resource shows as changed after toggle-subscriber-updates,
 * and the server's log view fills after toggle-simulated-logging. What each tool returned is kept
 * in test/output/everything-tools-TRANSPORT.json (the table of what Harbor did).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { startEverythingHttp } from '../helpers/everything-http';
import type { RunningHttpServer } from '../helpers/http-server';
import { NODE, ROOT, allowCallsWithoutAsking, collectErrors, expect, goTo, openServer, pickServer, runTool, test } from './servers-fixture';
import { SIMULATED_LOG } from '../helpers/everything-logs';

const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FOLDER = mkdtempSync(join(tmpdir(), 'harbor-e2e-root-'));
const OUTPUT = join(ROOT, 'test', 'output');

/** One tool as a person runs it: the form's fields, what the dialogs need, what the result says. */
interface ToolRun {
  readonly tool: string;
  readonly fields?: Record<string, string>;
  /** Radio buttons to pick (enums of a few options). */
  readonly choose?: readonly string[];
  /** Answers the dialog the tool opens, if any. */
  readonly answer?: (page: Page, server: string) => Promise<void>;
  readonly expected: RegExp;
}

async function answerForm(page: Page, server: string): Promise<void> {
  const question = page.getByRole('dialog', { name: `“${server}” asks for your input` });
  await expect(question).toBeVisible({ timeout: 30_000 });
  // The name comes first in both forms (titled "String" in one, "Your Name" in the other).
  await question.getByRole('textbox').first().fill('Ada', { timeout: 30_000 });
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toBeHidden();
}

async function approveSampling(page: Page, server: string): Promise<void> {
  const review = page.getByRole('dialog', { name: `“${server}” wants to ask the model` });
  await expect(review).toBeVisible({ timeout: 30_000 });
  await review.getByRole('button', { name: 'Approve and run' }).click({ timeout: 30_000 });
  const answer = page.getByRole('dialog', { name: `Send the model's answer to “${server}”?` });
  await answer.getByRole('button', { name: 'Send answer' }).click({ timeout: 60_000 });
  await expect(answer).toBeHidden();
}

async function declinePage(page: Page, server: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: `“${server}” asks you to open a web page` });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Decline' }).click({ timeout: 30_000 });
}

const RUNS: readonly ToolRun[] = [
  { tool: 'echo', fields: { message: 'hi' }, expected: /Echo: hi/ },
  { tool: 'get-annotated-message', choose: ['success'], expected: /Operation completed successfully/ },
  { tool: 'get-env', expected: /"PATH"/ },
  { tool: 'get-resource-links', fields: { count: '2' }, expected: /Here are 2 resource links/ },
  { tool: 'get-resource-reference', expected: /Returning resource reference for Resource 1/ },
  { tool: 'get-structured-content', choose: ['Chicago'], expected: /temperature/ },
  { tool: 'get-sum', fields: { a: '2', b: '3' }, expected: /The sum of 2 and 3 is 5/ },
  { tool: 'get-tiny-image', expected: /MCP logo/ },
  { tool: 'gzip-file-as-resource', fields: { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8gd29ybGQ=' }, expected: /hello\.txt\.gz/ },
  { tool: 'trigger-long-running-operation', fields: { duration: '2', steps: '2' }, expected: /Long running operation completed/ },
  { tool: 'trigger-elicitation-request', answer: answerForm, expected: /Ada/ },
  { tool: 'trigger-url-elicitation', fields: { url: 'https://example.com/consent' }, answer: declinePage, expected: /declined/i },
  { tool: 'trigger-sampling-request', fields: { prompt: 'Why is the sea blue?', maxTokens: '20' }, answer: approveSampling, expected: /Hello from the model/ },
  { tool: 'simulate-research-query', fields: { topic: 'tides' }, expected: /Research Report: tides/ },
  { tool: 'trigger-sampling-request-async', fields: { prompt: 'Why is the sea blue?', maxTokens: '20' }, answer: approveSampling, expected: /COMPLETED/ },
  { tool: 'trigger-elicitation-request-async', answer: answerForm, expected: /COMPLETED/ },
  { tool: 'get-roots-list', expected: new RegExp(`file://${FOLDER}`) },
  { tool: 'toggle-simulated-logging', expected: /Started simulated, random-leveled logging/ },
  { tool: 'toggle-subscriber-updates', expected: /Started simulated resource updated notifications/ },
];

let model: ScriptedModel;
let http: RunningHttpServer;
test.beforeAll(async () => {
  model = await startScriptedModel({ script: [{ text: 'Hello from the model.' }], repeatLast: true });
  http = await startEverythingHttp();
});
test.afterAll(async () => {
  await model.close();
  await http.kill();
  rmSync(FOLDER, { recursive: true, force: true });
});

test.use({
  harborOptions: {
    registry: { mcpServers: {} },
    // The model's and the HTTP server's addresses are known only once they listen.
    before: async ({ configPath, cli }) => {
      const file = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      const servers = {
        stdio: { command: NODE, args: [EVERYTHING, 'stdio'], roots: [FOLDER], trusted: true },
        http: { url: http.url, roots: [FOLDER] },
      };
      writeFileSync(configPath, JSON.stringify({ ...file, mcpServers: servers, model: model.modelConfig() }, null, 2));
      // A fresh data folder approves no remote server: the person approves this one first.
      await cli(['consent', 'grant-launch', 'http']);
    },
  },
});

async function run(page: Page, server: string, step: ToolRun): Promise<{ ms: number; text: string }> {
  const started = Date.now();
  const panel = await runTool(page, step.tool, step.fields);
  for (const option of step.choose ?? []) await panel.getByRole('radio', { name: option, exact: true }).check();
  if (step.choose?.length) await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await step.answer?.(page, server);
  const result: Locator = panel.getByRole('region', { name: 'Result' });
  await expect(result, `${server} ${step.tool}`).toContainText(step.expected, { timeout: 60_000 });
  return { ms: Date.now() - started, text: (await result.innerText()).replace(/\s+/g, ' ').slice(0, 160) };
}

for (const server of ['stdio', 'http']) {
  test(`every tool of server-everything over ${server} works from the Tools page`, async ({ page, harbor }) => {
    test.setTimeout(600_000);
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    // The detail pane shows the server picked in the list.
    await expect((await openServer(page, server)).getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
    await allowCallsWithoutAsking(page, server);
    await goTo(page, 'Tools');
    await pickServer(page, server);
    const rows: { tool: string; ms: number; result: string }[] = [];
    for (const step of RUNS) {
      const { ms, text } = await run(page, server, step);
      rows.push({ tool: step.tool, ms, result: text });
    }

    // A subscribed resource is read again and shown as changed; the log view has the messages.
    await goTo(page, 'Resources');
    await pickServer(page, server);
    await page.getByRole('button', { name: /^Subscribe to architecture\.md/ }).click();
    await expect(page.getByText(/^changed /).first()).toBeVisible({ timeout: 30_000 });
    rows.push({ tool: 'toggle-subscriber-updates (Resources view)', ms: 0, result: 'architecture.md subscribed, shown as changed' });
    await goTo(page, 'Servers');
    const card = await openServer(page, server);
    await card.getByRole('button', { name: `Logs of ${server}` }).click();
    await expect(card.getByRole('list', { name: `Log messages of ${server}` }).getByText(SIMULATED_LOG).first()).toBeVisible({ timeout: 30_000 });
    rows.push({ tool: 'toggle-simulated-logging (log view)', ms: 0, result: 'random-level messages in the server log view' });

    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(join(OUTPUT, `everything-tools-${server}.json`), `${JSON.stringify(rows, null, 2)}\n`);
    expect(errors).toEqual([]);
  });
}
