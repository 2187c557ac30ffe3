/**
 * The real renderer in Debian's Chromium, served by browser mode (`harbor web`) over a real Host:
 * open the printed URL, walk every page of the navigation, and check that what the Host knows
 * (version, config file, servers) is what the page shows.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from './coverage';
import { collectErrors, readUrlLine, stopProcess } from './harbor-process';

const ROOT = resolve(import.meta.dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const SCREENSHOTS = join(ROOT, 'test', 'output', 'screenshots');
const NAV = ['Chat', 'Servers', 'Tools', 'Resources', 'Prompts', 'Tasks', 'Activity', 'Settings'] as const;

interface Harbor {
  readonly url: string;
  readonly origin: string;
  readonly configPath: string;
  readonly dataDir: string;
}

/** `harbor web --port 0` on a temp config holding one stdio server; stopped (SIGTERM) after the test. */
const test = base.extend<{ harbor: Harbor }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a test uses from this pattern
  harbor: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-e2e-'));
    const configPath = join(dir, 'harbor.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['server.js'], trusted: true } } }, null, 2));
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'harbor.js'), 'web', '--port', '0', '--no-autostart', '--config', configPath, '--data-dir', dir], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const url = await readUrlLine(child);
      await use({ url, origin: new URL(url).origin, configPath, dataDir: dir });
    } finally {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    }
  },
});



/**
 * Console errors include CSP violations and failed loads: the page must run under its strict policy
 * untouched. The one tolerated line is Chromium noting that the <meta> copy of the policy cannot
 * carry frame-ancestors (the HTTP header, which browser mode sends, does).
 */


async function screenshot(page: Page, name: string, outputPath: (name: string) => string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const image = await page.screenshot({ fullPage: true });
  writeFileSync(outputPath(`${name}.png`), image);
  writeFileSync(join(SCREENSHOTS, `${name}.png`), image);
}

async function goTo(page: Page, name: (typeof NAV)[number]): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
}

test('opens the printed URL, walks every page and shows what the Host knows', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);

  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  // The token left the address bar once the page had read it.
  await expect.poll(() => page.url()).not.toContain('token=');

  for (const name of NAV) await goTo(page, name);

  await goTo(page, 'Servers');
  const notes = page.getByRole('article', { name: 'notes' });
  await expect(notes).toBeVisible();
  await expect(notes.getByText('node server.js')).toBeVisible();
  await expect(notes.getByText('Local program (stdio)')).toBeVisible();
  await expect(notes.getByText('Stopped', { exact: true })).toBeVisible();
  await screenshot(page, 'servers', (n) => testInfo.outputPath(n));

  // The Tools, Resources and Prompts views are covered against live servers in catalog.spec.ts.

  await goTo(page, 'Settings');
  const about = page.getByRole('region', { name: 'About' });
  await expect(about.getByText(`Harbor ${PACKAGE.version}`, { exact: true })).toBeVisible();
  await expect(about.getByText('Browser mode (harbor web)')).toBeVisible();
  await expect(about.getByText(harbor.configPath, { exact: true })).toBeVisible();
  await expect(about.getByText(harbor.dataDir, { exact: true })).toBeVisible();
  await expect(page.getByText('None: the configuration file reads cleanly.')).toBeVisible();
  await screenshot(page, 'settings', (n) => testInfo.outputPath(n));

  // A reload keeps working: the token was kept for this tab.
  await page.reload();
  await expect(about.getByText(harbor.configPath, { exact: true })).toBeVisible();

  await page.emulateMedia({ colorScheme: 'dark' });
  await goTo(page, 'Servers');
  await expect(notes).toBeVisible();
  await screenshot(page, 'servers-dark', (n) => testInfo.outputPath(n));

  expect(errors).toEqual([]);
});

test('a server started from the page updates its badge and the activity log live', async ({ page, harbor }, testInfo) => {
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  const notes = page.getByRole('article', { name: 'notes' });
  await expect(notes.getByText('Stopped', { exact: true })).toBeVisible();
  await notes.getByRole('button', { name: 'Start notes' }).click();
  // "node server.js" has no server.js here: whatever the Host reports next (starting, restarting,
  // error) arrives as a servers.changed event and replaces "Stopped" without a reload.
  await expect(notes.getByText('Stopped', { exact: true })).toBeHidden({ timeout: 30_000 });
  await screenshot(page, 'servers-started', (n) => testInfo.outputPath(n));
  await goTo(page, 'Activity');
  await expect(page.getByRole('list', { name: 'Server events' }).getByText('notes').first()).toBeVisible();
});

test('without the token the page says which URL to open', async ({ page, harbor }) => {
  const errors = collectErrors(page);
  await page.goto(`${harbor.origin}/`);
  await expect(page.getByRole('alert').first()).toContainText('access token');
  // No token, no attempt: the page does not even open a socket it knows would be refused.
  expect(errors).toEqual([]);
});
