/**
 * Import from Claude Desktop in the app: the file in its default place is detected, the preview
 * lists what will be added and which secret moves to the keychain, and after importing the secret
 * is in the keychain, the registry holds only a reference, and the value never reaches the page —
 * not in the preview, not in the editor, not even when the server echoes it back.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ECHO_ENV_SERVER, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const TOKEN = `ghp_e2eImport${Date.now()}xyz`;

test.use({
  harborOptions: {
    registry: { mcpServers: {} },
    before: ({ home }) => {
      const dir = join(home, '.config', 'Claude');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'claude_desktop_config.json'),
        JSON.stringify({
          mcpServers: {
            echo: { command: NODE, args: [ECHO_ENV_SERVER], env: { GITHUB_TOKEN: TOKEN, PLAIN: 'visible' } },
            weather: { command: 'uvx', args: ['weather-mcp'] },
          },
        }),
      );
    },
  },
});

test('a Claude Desktop config is imported; its secret moves to the keychain and never appears in the page', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  await page.getByRole('button', { name: 'Import…' }).click();
  const panel = page.getByRole('region', { name: 'Import servers' });
  const claude = panel.getByRole('radio', { name: /Claude Desktop/ });
  await expect(claude).toBeChecked();
  await expect(panel.getByText('Found', { exact: true })).toBeVisible();
  await expect(panel.getByRole('radio', { name: /Cursor/ })).toBeDisabled();

  await panel.getByRole('button', { name: 'Preview import' }).click();
  const preview = panel.getByRole('region', { name: 'Import preview' });
  await expect(preview.getByRole('row', { name: /echo/ })).toBeVisible();
  await expect(preview.getByRole('row', { name: /weather/ })).toContainText('uvx weather-mcp');
  const moving = preview.getByRole('list', { name: 'Secrets that move to the keychain' });
  await expect(moving).toContainText('GITHUB_TOKEN');
  await expect(moving).toContainText('echo-github_token');
  expect(await page.content()).not.toContain(TOKEN);
  await screenshot(page, 'view-servers-import-preview', testInfo);

  await panel.getByRole('button', { name: 'Import 2 servers' }).click();
  await expect(panel.getByText('Imported 2 servers: echo, weather.')).toBeVisible();
  await expect(panel.getByText('1 secret moved to the keychain.', { exact: false })).toBeVisible();

  const registry = JSON.parse(readFileSync(harbor.configPath, 'utf8'));
  expect(registry.mcpServers.echo.env).toEqual({ GITHUB_TOKEN: '${secret:echo-github_token}', PLAIN: 'visible' });
  expect(readFileSync(harbor.configPath, 'utf8')).not.toContain(TOKEN);
  const listed = await harbor.cli(['--json', 'secret', 'list']);
  expect(JSON.parse(listed.stdout)).toEqual(['echo-github_token']);

  // The imported server launches with the value from the keychain; echoed back, it is masked.
  const card = page.getByRole('article', { name: 'echo' });
  await card.getByRole('switch', { name: 'Trust echo' }).check();
  await card.getByRole('button', { name: 'Start echo' }).click();
  await expect(card.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await allowCallsWithoutAsking(page, 'echo');
  await goTo(page, 'Tools');
  await pickServer(page, 'echo');
  const run = await runTool(page, 'get_env', { name: 'GITHUB_TOKEN' });
  const result = run.getByRole('region', { name: 'Result' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  await result.getByText('Structured content').click();
  // The server got the real value (its length and hash match) …
  await expect(result).toContainText(`"length": ${TOKEN.length}`);
  await expect(result).toContainText(createHash('sha256').update(TOKEN).digest('hex'));
  // … and the page never saw it.
  expect(await page.content()).not.toContain(TOKEN);

  await goTo(page, 'Servers');
  await page.getByRole('button', { name: 'Edit echo' }).click();
  await expect(page.getByRole('form', { name: 'Edit echo' }).getByText('echo-github_token')).toBeVisible();
  await page.getByRole('button', { name: 'Edit as JSON' }).click();
  await expect(page.getByRole('textbox', { name: 'Configuration JSON' })).toHaveValue(/\$\{secret:echo-github_token\}/);
  await goTo(page, 'Activity');
  await expect(page.getByRole('list', { name: 'Messages' })).toBeVisible();
  expect(await page.content()).not.toContain(TOKEN);
  expect(errors).toEqual([]);
});
