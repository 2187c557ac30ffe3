/**
 * Shared by the Servers, Catalog, Activity and Settings specs: `harbor web --port 0` on a temp
 * registry, data dir and home (so "import from Claude Desktop" finds only the file a test puts
 * there), with its own keychain service name (the test's secrets never mix with a person's), and
 * helpers to drive the page the way a person would.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { test as base, expect } from './coverage';
import { collectErrors, readUrlLine, stopProcess } from './harbor-process';

export const ROOT = resolve(import.meta.dirname, '../..');
export const NODE = process.execPath;
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'servers');
export const FEATURE_SERVER = join(FIXTURES, 'modern', 'feature-server.mjs');
export const CRASH_SERVER = join(FIXTURES, 'adversarial', 'crash-on-call.mjs');
export const ECHO_ENV_SERVER = join(FIXTURES, 'echo-env.mjs');
const SCREENSHOTS = join(ROOT, 'test', 'output', 'screenshots');

export interface HarborPaths {
  readonly dir: string;
  readonly configPath: string;
  readonly dataDir: string;
  /** HOME (and XDG_CONFIG_HOME under it) of the Harbor process. */
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface HarborWeb extends HarborPaths {
  readonly url: string;
  /** Runs the CLI against the same config, data dir and keychain service. */
  cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

export interface HarborOptions {
  /** The registry file the Host starts with. */
  readonly registry: Record<string, unknown>;
  /** Runs before `harbor web` starts (write files into home, seed consent with the CLI…). */
  readonly before?: (paths: HarborPaths & { cli: HarborWeb['cli'] }) => Promise<void> | void;
}

export const test = base.extend<{ harborOptions: HarborOptions; harbor: HarborWeb }>({
  harborOptions: [{ registry: { mcpServers: {} } }, { option: true }],
  harbor: async ({ harborOptions }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-e2e-'));
    const home = join(dir, 'home');
    const dataDir = join(dir, 'data');
    mkdirSync(join(home, '.config'), { recursive: true });
    mkdirSync(dataDir, { recursive: true });
    const configPath = join(dir, 'harbor.json');
    writeFileSync(configPath, `${JSON.stringify(harborOptions.registry, null, 2)}\n`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      HARBOR_KEYCHAIN_SERVICE: `harbor-e2e-${process.pid}-${Date.now()}`,
    };
    const cli = (args: readonly string[]) => runCli(['--config', configPath, '--data-dir', dataDir, ...args], env);
    const paths = { dir, configPath, dataDir, home, env };
    await harborOptions.before?.({ ...paths, cli });
    const child = spawn(NODE, [join(ROOT, 'bin', 'harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dataDir], {
      cwd: dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const url = await readUrlLine(child);
      await use({ ...paths, url, cli });
    } finally {
      await stopProcess(child);
      // Secrets the test stored live in the keychain, not the temp dir: remove them too.
      const listed = await cli(['--json', 'secret', 'list']);
      if (listed.code === 0) {
        for (const name of JSON.parse(listed.stdout || '[]') as string[]) await cli(['secret', 'delete', name]);
      }
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export { expect };

function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(NODE, [join(ROOT, 'bin', 'harbor.js'), ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}




/** Two copies of the feature fixture, "feature" and "second": for views that show several servers at once. */
export const TWO_FEATURE_SERVERS: HarborOptions = {
  registry: {
    mcpServers: {
      feature: { command: NODE, args: [FEATURE_SERVER], trusted: true },
      second: { command: NODE, args: [FEATURE_SERVER, '--name', 'second'], trusted: true },
    },
  },
};

/** A server's row in the Servers page's list (a link named by the server). */
export function serverRow(page: Page, name: string) {
  return page.getByRole('list', { name: 'Servers' }).getByRole('link', { name, exact: true });
}

/** Opens a server's details on the Servers page (its row), returning its detail pane. */
export async function openServer(page: Page, name: string) {
  await serverRow(page, name).click();
  const detail = page.getByRole('article', { name, exact: true });
  await expect(detail).toBeVisible();
  return detail;
}

/** Screenshots named as the UI work agreed: `<view>-<theme>-<width>x<height>`, in both themes at the page's current size. */
export async function screenshotBothThemes(page: Page, view: string, testInfo: TestInfo): Promise<void> {
  const size = page.viewportSize() ?? { width: 0, height: 0 };
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await screenshot(page, `${view}-${theme}-${size.width}x${size.height}`, testInfo);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * No accessibility violations axe can find on what the page shows now (a view, an open dialog),
 * in both themes: contrast differs between them. Each violation is listed with its nodes.
 */
export async function expectNoAxeViolations(page: Page, within?: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    // `within` checks one part, e.g. an open dialog over an app's frame whose own markup is not Harbor's.
    const { violations } = await (within ? new AxeBuilder({ page }).include(within) : new AxeBuilder({ page })).analyze();
    expect(violations.map((v) => `${theme}: ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Whether the page scrolls sideways (something too wide for the window). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

export async function goTo(page: Page, name: 'Chat' | 'Servers' | 'Tools' | 'Resources' | 'Prompts' | 'Tasks' | 'Activity' | 'Settings'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
}

/** Saves a full-page screenshot as test output and under test/output/screenshots/. */
export async function screenshot(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const image = await page.screenshot({ fullPage: true });
  writeFileSync(testInfo.outputPath(`${name}.png`), image);
  writeFileSync(join(SCREENSHOTS, `${name}.png`), image);
}

/**
 * Settings → Approvals → "Run without asking" for one server: the specs about lists and traffic
 * run tools by hand without a consent dialog (consent has its own specs).
 */
export async function allowCallsWithoutAsking(page: Page, server: string): Promise<void> {
  await goTo(page, 'Settings');
  const select = page.getByRole('combobox', { name: `Tool calls of ${server}` });
  await select.selectOption({ label: 'Run without asking' });
  await expect(select).toHaveValue('allow');
}

/** Tools/Resources/Prompts: show this server's catalog. */
export async function pickServer(page: Page, server: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption(server);
}

/** Runs a tool from the Tools page with text/number arguments typed into its form; returns the result region. */
export async function runTool(page: Page, tool: string, args: Record<string, string> = {}) {
  const tools = page.getByRole('list', { name: /^Tools of / });
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(tool);
  await tools.getByRole('button', { name: `Run ${tool}`, exact: true }).click();
  const panel = page.getByRole('region', { name: new RegExp(`^Run ${tool}`) });
  for (const [name, value] of Object.entries(args)) {
    // Numbers are number inputs: typed key by key, as a person would (fill refuses text that is not a number).
    const label = new RegExp(`^${name}`);
    const field = panel.getByRole('textbox', { name: label }).or(panel.getByRole('spinbutton', { name: label }));
    // A number box may hold the schema's default already: cleared first, as a person would select and retype.
    if ((await field.getAttribute('type')) === 'number') {
      await field.fill('');
      await field.pressSequentially(value);
    }
    else await field.fill(value);
  }
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search tools' }).fill('');
  return panel;
}

export { collectErrors };
