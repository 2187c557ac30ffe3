/**
 * What the chat, consent, elicitation and security specs share: `harbor web` on a temp config
 * and data dir whose "model" is the scripted model (test/fixtures/model) on 127.0.0.1 and whose
 * servers are the feature fixture (with --events-file) and, when asked, the bundled notes server.
 * Real Host, real MCP servers as child processes, real Chromium; everything is stopped and removed
 * after each test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { test as base, expect } from './coverage';
import { startScriptedModel, type ScriptEntry, type ScriptedModel } from '../fixtures/model/scripted-model';
import { collectErrors, readUrlLine, stopProcess } from './harbor-process';

export const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = join(ROOT, 'test', 'output', 'screenshots');
const FEATURE_SERVER = join(ROOT, 'test/fixtures/servers/modern/feature-server.mjs');
const NOTES_SERVER = join(ROOT, 'resources/example-server/notes-server.mjs');
const EVERYTHING_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface HarborOptions {
  readonly script: readonly ScriptEntry[];
  /** Also run the bundled notes server (prompts with completions). */
  readonly notes?: boolean;
  /** Mark the feature server trusted (default true: launch consent is not the point of most specs). */
  readonly trustedFeature?: boolean;
  /** Environment of the feature server (names show in the launch consent; values never do). */
  readonly featureEnv?: Record<string, string>;
  /** Also run the reference "everything" server (images, structured content). */
  readonly everything?: boolean;
  /** Extra fields of the "model" entry (e.g. "vision"). */
  readonly model?: Record<string, unknown>;
  /** Extra registry entries (e.g. "chat"). */
  readonly extra?: Record<string, unknown>;
  /** More servers beside the feature fixture (e.g. the skills fixtures). */
  readonly servers?: Record<string, unknown>;
}

export interface ChatHarbor {
  readonly url: string;
  readonly dir: string;
  readonly configPath: string;
  /** Where the feature server records "cancelled <id>" when a slow call is cancelled. */
  readonly eventsFile: string;
  readonly model: ScriptedModel;
}

type Start = (options: HarborOptions) => Promise<ChatHarbor>;

export const test = base.extend<{ startHarbor: Start }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a test uses from this pattern
  startHarbor: async ({}, use) => {
    const started: { child: ChildProcessWithoutNullStreams; model: ScriptedModel; dir: string }[] = [];
    await use(async (options) => {
      const dir = mkdtempSync(join(tmpdir(), 'harbor-e2e-chat-'));
      const model = await startScriptedModel({ script: options.script });
      const configPath = join(dir, 'harbor.json');
      const eventsFile = join(dir, 'events.txt');
      const servers: Record<string, unknown> = {
        feature: {
          command: process.execPath,
          args: [FEATURE_SERVER, '--events-file', eventsFile],
          trusted: options.trustedFeature ?? true,
          ...(options.featureEnv ? { env: options.featureEnv } : {}),
        },
      };
      if (options.notes) {
        mkdirSync(join(dir, 'notes'));
        servers.notes = { command: process.execPath, args: [NOTES_SERVER], env: { HARBOR_NOTES_DIR: join(dir, 'notes') }, trusted: true };
      }
      Object.assign(servers, options.servers);
      if (options.everything) servers.everything = { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], trusted: true };
      writeFileSync(configPath, JSON.stringify({ mcpServers: servers, model: model.modelConfig(options.model), ...options.extra }, null, 2));
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dir], {
        cwd: dir,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      started.push({ child, model, dir });
      const url = await readUrlLine(child);
      return { url, dir, configPath, eventsFile, model };
    });
    for (const { child, model, dir } of started.reverse()) {
      await stopProcess(child);
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export { expect };





/** Saves a screenshot as test output and under test/output/screenshots/ (gitignored). */
export async function screenshot(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const image = await page.screenshot({ fullPage: false });
  writeFileSync(testInfo.outputPath(`${name}.png`), image);
  writeFileSync(join(SCREENSHOTS, `${name}.png`), image);
}

/** The same view in light and in dark (prefers-color-scheme), as `name-light.png` and `name-dark.png`. */
export async function screenshotBoth(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, `${name}-light`, testInfo);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, `${name}-dark`, testInfo);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The view at both sizes in both themes, as `<view>-<theme>-<width>x<height>.png`. */
export async function screenshotSizes(page: Page, view: string, testInfo: TestInfo, sizes: readonly (readonly [number, number])[] = SIZES): Promise<void> {
  const before = page.viewportSize();
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await screenshot(page, `${view}-${theme}-${width}x${height}`, testInfo);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await page.setViewportSize(before);
}

export const SIZES = [
  [1000, 700],
  [1400, 900],
] as const;

/** Opens the app and waits until the chat knows its model and the feature server's tools are counted. */
export async function openChat(page: Page, harbor: ChatHarbor): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(harbor.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  // Generous: the model's status is a request of its own, slow on a loaded machine.
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('scripted', { timeout: 30_000 });
  // Servers start at launch: the context meter counts their tools once they are ready.
  await expect(contextMeter(page)).toHaveAttribute('title', /Tool definitions: [1-9][\d,]* tokens/, { timeout: 20_000 });
}

/** The context meter in the chat's header: its full reading is its name and tooltip ("Tool definitions: 1,234 tokens, …"). */
export function contextMeter(page: Page) {
  return page.locator('.context-meter summary');
}

/** A tool call's card, opened (cards are one closed line until the person opens them). */
export async function openToolCard(page: Page, name: string, nth = 0) {
  const card = page.getByRole('article', { name }).nth(nth);
  const line = card.getByRole('heading').getByRole('button');
  if ((await line.getAttribute('aria-expanded')) !== 'true') await line.click();
  await expect(line).toHaveAttribute('aria-expanded', 'true');
  return card;
}

/** Types a message and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** A consent question: a dialog, or — a chat's own call — the card in the transcript with the call. */
export function consentDialog(page: Page) {
  return page.getByRole('dialog').or(page.locator('.consent-card'));
}

export { collectErrors };
