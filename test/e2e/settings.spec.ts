/**
 * Settings against a real Host: the theme (saved, applied through data-theme), the model with its
 * key stored in the keychain (never in the file or the page), progressive discovery, per-server
 * approval defaults that take effect, remembered decisions revoked, and a timeout changed without
 * restarting the server.
 */
import { readFileSync } from 'node:fs';
import { FEATURE_SERVER, NODE, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const API_KEY = `sk-ant-e2e-${Date.now()}-secret`;

test.use({
  harborOptions: {
    registry: { mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER], trusted: true } } },
    // A remembered decision to revoke: "always allow echo", as `harbor consent grant` records it.
    before: async ({ cli }) => {
      const granted = await cli(['consent', 'grant', 'feature', 'echo', '--always']);
      if (granted.code !== 0) throw new Error(`consent grant failed: ${granted.stderr}`);
    },
  },
});

/** --bg of the two palettes (renderer/src/styles.css). */
const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(18, 22, 28)';

test('theme, model and key, discovery, approvals and timeouts', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await goTo(page, 'Settings');

  // Theme: applied at once, kept across a reload.
  // The page's colours, not only the attribute: the palette is light-dark() pairs picked by color-scheme.
  const body = page.locator('body');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(body).toHaveCSS('background-color', DARK_BG);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await screenshot(page, 'view-settings-dark', testInfo);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(body).toHaveCSS('background-color', LIGHT_BG);
  await screenshot(page, 'view-settings-light', testInfo);
  await page.getByRole('radio', { name: 'Same as the system' }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  // Following the system: dark now, light when the system turns light.
  await expect(body).toHaveCSS('background-color', DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(body).toHaveCSS('background-color', LIGHT_BG);

  // Updates: browser mode has none, and says where they come from instead (no buttons).
  const updates = page.getByRole('region', { name: 'Updates' });
  await expect(updates.getByRole('status')).toHaveText('Harbor updates itself in the desktop app; here, update your Harbor install instead.');
  await expect(updates.getByRole('button')).toHaveCount(0);

  // Model and key.
  const model = page.getByRole('region', { name: 'Model' });
  await expect(model.getByText('No model is set')).toBeVisible();
  await model.getByRole('combobox', { name: 'Provider' }).selectOption('anthropic');
  await model.getByRole('textbox', { name: 'Model' }).fill('claude-e2e');
  await model.getByRole('radio', { name: /Set a key/ }).check();
  await model.getByLabel('API key').fill(API_KEY);
  await model.getByRole('button', { name: 'Save model' }).click();
  await expect(model.getByText('Saved. The key is in the system keychain')).toBeVisible();
  await expect(model.getByRole('radio', { name: /Keep the current key \(in the keychain as model-anthropic-api-key — set\)/ })).toBeChecked();
  const file = JSON.parse(readFileSync(harbor.configPath, 'utf8'));
  expect(file.model).toEqual({ provider: 'anthropic', model: 'claude-e2e', apiKey: '${secret:model-anthropic-api-key}' });
  expect(readFileSync(harbor.configPath, 'utf8')).not.toContain(API_KEY);
  expect(JSON.parse((await harbor.cli(['--json', 'secret', 'list'])).stdout)).toContain('model-anthropic-api-key');
  expect(await page.content()).not.toContain(API_KEY);

  // Progressive discovery.
  const tools = page.getByRole('region', { name: 'Tools in chat' });
  await tools.getByRole('textbox', { name: /Threshold/ }).fill('10');
  await expect(tools.getByText(/≈ 12,800 tokens of a 128,000-token window/)).toBeVisible();
  await tools.getByRole('button', { name: 'Save' }).click();
  await expect(tools.getByText('Saved.')).toBeVisible();
  expect(JSON.parse(readFileSync(harbor.configPath, 'utf8')).chat).toEqual({ toolSearchThreshold: 0.1 });
  // Code mode, set here rather than only in the file; kept across a reload.
  const codeGroup = tools.getByRole('group', { name: 'Code mode' });
  await expect(codeGroup.getByRole('radio', { name: /^Beside the tools/ })).toBeChecked();
  await codeGroup.getByRole('radio', { name: 'Never', exact: true }).check();
  await tools.getByRole('button', { name: 'Save' }).click();
  await expect(tools.getByText('Saved.')).toBeVisible();
  expect(JSON.parse(readFileSync(harbor.configPath, 'utf8')).chat).toEqual({ toolSearchThreshold: 0.1, codeMode: 'off' });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Tools in chat' }).getByRole('group', { name: 'Code mode' }).getByRole('radio', { name: 'Never', exact: true })).toBeChecked({ timeout: 30_000 });

  // Remembered decisions: the CLI's "always" for echo, revoked here.
  const approvals = page.getByRole('region', { name: 'Approvals' });
  const remembered = approvals.getByRole('list', { name: 'Remembered decisions' });
  await expect(remembered).toContainText('always allowed');
  await remembered.getByRole('button', { name: 'Revoke echo of feature' }).click();
  await expect(remembered.getByText('always allowed')).toBeHidden();
  const list = JSON.parse((await harbor.cli(['--json', 'consent', 'list'])).stdout) as { approvals: unknown[] };
  expect(list.approvals).toEqual([]);

  // A per-server default takes effect: "Never run" refuses a call that would otherwise run.
  await approvals.getByRole('combobox', { name: 'Tool calls of feature' }).selectOption({ label: 'Never run' });
  await expect(approvals.getByRole('combobox', { name: 'Tool calls of feature' })).toHaveValue('deny');
  await goTo(page, 'Tools');
  await pickServer(page, 'feature');
  const add = await runTool(page, 'add', { a: '1', b: '2' });
  await expect(add.getByRole('alert')).toContainText('CONSENT_DENIED');
  await goTo(page, 'Settings');
  await page.getByRole('combobox', { name: 'Tool calls of feature' }).selectOption('');

  // A timeout: saved in the registry; the server keeps running.
  const timeouts = page.getByRole('region', { name: 'Timeouts' });
  await timeouts.getByRole('textbox', { name: 'feature' }).fill('5');
  await timeouts.getByRole('button', { name: 'Save the timeout of feature' }).click();
  await expect(timeouts.getByRole('button', { name: 'Save the timeout of feature' })).toBeDisabled();
  // The button is disabled while saving too: wait for the file rather than read it at once.
  await expect.poll(() => JSON.parse(readFileSync(harbor.configPath, 'utf8')).mcpServers.feature.timeoutMs).toBe(5000);
  await goTo(page, 'Activity');
  await expect(page.getByRole('list', { name: 'Server events' }).getByText('stopped')).toHaveCount(0);
  expect(errors).toEqual([]);
});
