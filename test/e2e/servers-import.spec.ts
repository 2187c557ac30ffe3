/**
 * Import from Claude Desktop in the app: the file in its default place is detected, the preview
 * lists what will be added and which secret moves to the keychain, and after importing the secret
 * is in the keychain, the registry holds only a reference, and the value never reaches the page —
 * not in the preview, not in the editor, not even when the server echoes it back.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ECHO_ENV_SERVER,
  FEATURE_SERVER,
  NODE,
  allowCallsWithoutAsking,
  collectErrors,
  expect,
  expectNoAxeViolations,
  goTo,
  openServer,
  pickServer,
  runTool,
  screenshot,
  screenshotBothThemes,
  test,
} from './servers-fixture';

const TOKEN = `ghp_e2eImport${Date.now()}xyz`;

/** Claude Desktop's config, in its default place under the test's home. */
function writeClaudeConfig(home: string): void {
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
}

test.describe('a name already taken here', () => {
  test.use({
    harborOptions: {
      registry: {
        mcpServers: {
          echo: { command: NODE, args: [FEATURE_SERVER, '--name', 'my-echo'], trusted: true },
          weather: { command: NODE, args: [FEATURE_SERVER, '--name', 'my-weather'], trusted: true },
        },
      },
      before: ({ home }) => writeClaudeConfig(home),
    },
  });

  test('each clashing server can be skipped or imported under another name; nothing of mine is overwritten', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Import servers' });
    await panel.getByRole('button', { name: 'Preview import' }).click();
    const clashes = panel.getByRole('group', { name: 'Already here, with a different configuration' });
    const echo = clashes.getByRole('group', { name: 'echo' });
    const weather = clashes.getByRole('group', { name: 'weather' });
    await expect(echo).toContainText('my-echo');
    await expect(weather).toContainText('uvx weather-mcp');
    // Both skipped until the person says otherwise: nothing to import yet, nothing blocked.
    await expect(echo.getByRole('radio', { name: 'Skip it' })).toBeChecked();
    await expect(panel.getByRole('button', { name: 'Import 0 servers' })).toBeDisabled();

    await weather.getByRole('radio', { name: 'Import it as' }).check();
    const newName = weather.getByRole('textbox', { name: 'New name for weather' });
    await expect(newName).toHaveValue('weather-2');
    await newName.fill('echo');
    await expect(weather.getByText('"echo" is already taken: choose another name.')).toBeVisible();
    await newName.fill('weather uv');
    await expect(panel.getByRole('button', { name: 'Import 1 server' })).toBeEnabled();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    await screenshotBothThemes(page, 'servers-import-clashes', testInfo);
    await expectNoAxeViolations(page);

    await panel.getByRole('button', { name: 'Import 1 server' }).click();
    await expect(panel.getByText('Imported 1 server: weather uv.')).toBeVisible();
    await expect(panel.getByText('Skipped, as you chose: echo.')).toBeVisible();
    const registry = JSON.parse(readFileSync(harbor.configPath, 'utf8'));
    expect(Object.keys(registry.mcpServers)).toEqual(['echo', 'weather', 'weather uv']);
    expect(registry.mcpServers.echo.args).toEqual([FEATURE_SERVER, '--name', 'my-echo']);
    expect(registry.mcpServers['weather uv']).toEqual({ command: 'uvx', args: ['weather-mcp'] });
    expect(errors).toEqual([]);
  });
});

test.describe('an empty Harbor', () => {
  test.use({
    harborOptions: {
      registry: { mcpServers: {} },
      before: ({ home }) => writeClaudeConfig(home),
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

    // Imported servers start like any other added one: an untrusted one asks first. Not now.
    // Both wait together, in one sheet (issue #31 item 5), each with its own Deny.
    const sheet = page.getByRole('dialog', { name: 'Servers waiting to start' });
    const waiting = sheet.getByRole('list', { name: 'Waiting to start' }).getByRole('listitem');
    await expect(waiting).toHaveCount(2, { timeout: 15_000 });
    await sheet.getByRole('button', { name: 'Deny echo', exact: true }).click();
    await sheet.getByRole('button', { name: 'Deny weather', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Close' }).click();

    // The imported server launches with the value from the keychain; echoed back, it is masked.
    const card = await openServer(page, 'echo');
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
    await openServer(page, 'echo');
    await page.getByRole('button', { name: 'Edit echo' }).click();
    await expect(page.getByRole('form', { name: 'Edit echo' }).getByText('echo-github_token')).toBeVisible();
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    await expect(page.getByRole('textbox', { name: 'Configuration JSON' })).toHaveValue(/\$\{secret:echo-github_token\}/);
    await goTo(page, 'Activity');
    await expect(page.getByRole('list', { name: 'Messages' })).toBeVisible();
    expect(await page.content()).not.toContain(TOKEN);
    expect(errors).toEqual([]);
  });
});
