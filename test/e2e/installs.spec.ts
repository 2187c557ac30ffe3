/**
 * Installing servers in the app (browser mode, Chromium): a bundle packed with the official
 * `mcpb pack`, uploaded with the file picker, reviewed (author, tools, signature, the exact
 * command, the sandbox), its sensitive setting typed into the form and kept only in the keychain,
 * then started after launch consent and its tool run; and the gallery finding, showing and
 * installing servers from a local MCP Registry on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { packBundle } from '../helpers/bundles';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { allowCallsWithoutAsking, collectErrors, expect, expectNoAxeViolations, goTo, runTool, screenshot, test, pickServer } from './servers-fixture';

const KEY = `bundle-e2e-${Date.now()}-key`;
const NOTES_KEY = `notes-e2e-${Date.now()}-key`;
let scratch: string;
let bundle: string;
let registry: LocalRegistry;
let remote: RunningHttpServer;

test.beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'harbor-e2e-installs-'));
  bundle = await packBundle('hello', scratch);
  remote = await startHttpFeatureServer();
  registry = await startRegistry({ bundles: [bundle], remote: remote.url });
});

test.afterAll(async () => {
  await registry?.stop();
  await remote?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

test.use({
  harborOptions: {
    registry: { mcpServers: {} },
    // The gallery searches the local registry (started in beforeAll, before this runs).
    before: ({ configPath }) => writeFileSync(configPath, JSON.stringify({ mcpServers: {}, installs: { registries: [registry.url] } })),
  },
});

async function openGallery(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Gallery' })).toBeVisible();
}

test('a bundle file is reviewed, installed with its secret in the keychain, and its tools work', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await openGallery(page);
  await page.getByLabel('Bundle file').setInputFiles(bundle);

  const dialog = page.getByRole('dialog', { name: 'Install Hello Bundle 1.0.0' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Harbor Tests <tests@example.com>');
  await expect(dialog).toContainText('Unsigned');
  await expectNoAxeViolations(page, 'dialog[open]');
  for (const tool of ['greet', 'key_fingerprint', 'list_root']) await expect(dialog.getByText(tool, { exact: true })).toBeVisible();
  await expect(dialog.getByText('welcome', { exact: true })).toBeVisible();
  // CI's Linux runs the sandbox (.ci/run installs bubblewrap): an installed server runs inside it.
  await expect(dialog.getByText('Sandboxed', { exact: true })).toBeVisible();
  // A required setting without a value: no plan, and the setting is named.
  await expect(dialog.getByText(/"api_key" \(API key\)/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Install', exact: true })).toBeDisabled();

  await dialog.getByLabel(/^API key/).fill(KEY);
  await dialog.getByLabel(/^Greeting/).fill('Ahoy');
  const command = dialog.getByRole('region', { name: 'Command' });
  await expect(command).toContainText(join(harbor.dataDir, 'bundles', 'hello-bundle', '1.0.0', 'server', 'index.mjs'));
  await expect(command).toContainText('--greeting Ahoy');
  await expect(dialog.getByRole('region', { name: 'Secrets' })).toContainText('hello-bundle-api_key');
  await screenshot(page, 'view-bundle-install', testInfo);
  await dialog.getByRole('button', { name: 'Install', exact: true }).click();

  // Starting it asks for launch consent, showing the same command.
  const consent = page.getByRole('dialog').filter({ hasText: 'Command line' });
  await expect(consent).toContainText(join('bundles', 'hello-bundle', '1.0.0', 'server', 'index.mjs'));
  await consent.getByRole('button', { name: 'Start this time' }).click();

  const registryText = readFileSync(harbor.configPath, 'utf8');
  expect(JSON.parse(registryText).mcpServers['hello-bundle']).toMatchObject({ env: { HELLO_API_KEY: '${secret:hello-bundle-api_key}' } });
  expect(registryText).not.toContain(KEY);

  await allowCallsWithoutAsking(page, 'hello-bundle');
  await goTo(page, 'Tools');
  await pickServer(page, 'hello-bundle');
  const result = await runTool(page, 'key_fingerprint');
  await expect(result).toContainText(createHash('sha256').update(KEY).digest('hex'));
  expect(await page.content()).not.toContain(KEY);
  expect(errors).toEqual([]);
});

test('the gallery finds, shows and installs a server from the local registry, and it works', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await openGallery(page);
  const results = page.getByRole('list', { name: 'Servers' });
  await expect(results.getByRole('listitem', { name: 'Filesystem' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('brave');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const brave = results.getByRole('listitem', { name: 'Brave Search' });
  await expect(brave).toContainText('MCP server for Brave Search API integration');
  await expect(brave).toContainText('https://github.com/brave/brave-search-mcp-server');
  await expect(brave).toContainText('BRAVE_API_KEY (secret)');
  await expect(results.getByRole('heading', { level: 2 })).toHaveCount(1);
  await brave.getByRole('button', { name: /^Install Brave Search/ }).click();
  const braveDialog = page.getByRole('dialog', { name: 'Install Brave Search 2.0.1' });
  await braveDialog.getByLabel('BRAVE_API_KEY').fill('bsa-e2e-123');
  await expect(braveDialog.getByRole('region', { name: 'Command' })).toContainText('npx -y @brave/brave-search-mcp-server@2.0.1');
  await screenshot(page, 'view-gallery-install', testInfo);
  await expectNoAxeViolations(page, 'dialog[open]');
  await braveDialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('local-notes');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const notes = results.getByRole('listitem', { name: 'Local Notes' });
  await notes.getByRole('button', { name: /^Install Local Notes/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Install Local Notes 1.0.0' });
  await dialog.getByLabel('X-Api-Key').fill(NOTES_KEY);
  await expect(dialog.getByRole('region', { name: 'Address' })).toContainText(remote.url);
  await expect(dialog.getByRole('region', { name: 'Secrets' })).toContainText('local-notes-x-api-key');
  await dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByText('Installed “local-notes”')).toBeVisible();

  const consent = page.getByRole('dialog').filter({ hasText: remote.url });
  await consent.getByRole('button', { name: 'Connect this time' }).click();
  const registryText = readFileSync(harbor.configPath, 'utf8');
  expect(JSON.parse(registryText).mcpServers['local-notes']).toMatchObject({ url: remote.url, headers: { 'X-Api-Key': '${secret:local-notes-x-api-key}' }, installed: { from: 'gallery' } });
  expect(registryText).not.toContain(NOTES_KEY);

  await goTo(page, 'Tools');
  await pickServer(page, 'local-notes');
  await expect(page.getByRole('list', { name: /^Tools of / })).toBeVisible();
  expect(await page.content()).not.toContain(NOTES_KEY);
  expect(errors).toEqual([]);
});
