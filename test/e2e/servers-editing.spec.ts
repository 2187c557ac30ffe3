/**
 * Editing servers against a real Host in browser mode: what the raw JSON editor adds or changes
 * starts like any other edit (the message says only what happened); the JSON editor checks as the
 * person types and marks lines; the form checks names and variable names as they are typed and
 * nothing bad is saved; unsaved edits are never thrown away without asking; Sign in shows alone on
 * a remote server never signed in.
 */
import { readFileSync } from 'node:fs';
import {
  FEATURE_SERVER,
  NODE,
  collectErrors,
  expect,
  expectNoAxeViolations,
  goTo,
  openServer,
  screenshotBothThemes,
  scrollsSideways,
  serverRow,
  test,
} from './servers-fixture';

test.describe('the raw JSON editor', () => {
  test.use({ harborOptions: { registry: { mcpServers: { first: { command: NODE, args: [FEATURE_SERVER, '--name', 'first'], trusted: true } } } } });

  test('servers added or changed there start (or restart) as from the form, and the message says what happened', async ({ page, harbor }) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await expect(serverRow(page, 'first').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    const editor = page.getByRole('textbox', { name: 'Configuration JSON' });
    await expect(editor).toHaveValue(/"first"/);
    const next = {
      mcpServers: {
        first: { command: NODE, args: [FEATURE_SERVER, '--name', 'first-changed'], trusted: true },
        added: { command: NODE, args: [FEATURE_SERVER, '--name', 'added'], trusted: true },
      },
    };
    await editor.fill(`${JSON.stringify(next, null, 2)}\n`);
    await expect(page.getByText('No problems: this file can be saved.')).toBeVisible();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toHaveText('Saved: started added; restarted first. The others kept running as they were.');
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    // Said and done: the new server is running, not "Stopped" although enabled; the changed one runs its new command.
    await expect(serverRow(page, 'added').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    const first = await openServer(page, 'first');
    await expect(first.getByText('first-changed 1.0.0')).toBeVisible({ timeout: 30_000 });
    const added = await openServer(page, 'added');
    await expect(added.getByText('added 1.0.0')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('checks as the person types, marks the line, saves nothing while a problem remains, and asks before Close drops changes', async ({ page, harbor }, testInfo) => {
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    const editor = page.getByRole('textbox', { name: 'Configuration JSON' });
    await expect(page.getByText('No problems: this file can be saved.')).toBeVisible();
    const before = readFileSync(harbor.configPath, 'utf8');

    // Line 4 holds a number where a string belongs: marked without pressing Save.
    await editor.fill('{\n  "mcpServers": {\n    "bad": {\n      "command": 42\n    }\n  }\n}\n');
    const problems = page.getByRole('list', { name: 'Problems' });
    await expect(problems).toBeVisible({ timeout: 5_000 });
    await expect(problems.getByRole('button', { name: 'Line 4' })).toBeVisible();
    await expect(page.locator('.raw-editor__line--bad')).toHaveText('4');
    await expect(editor).toHaveAttribute('aria-invalid', 'true');
    await screenshotBothThemes(page, 'servers-json-editor', testInfo);
    await expectNoAxeViolations(page);
    expect(await scrollsSideways(page)).toBe(false);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(problems).toBeVisible();
    expect(readFileSync(harbor.configPath, 'utf8')).toBe(before);

    // Close with typed changes: asked first; Keep editing keeps them; Discard drops them.
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await expect(ask).toBeVisible();
    await expectNoAxeViolations(page);
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(editor).toHaveValue(/"command": 42/);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await expect(editor).toBeHidden();
    expect(readFileSync(harbor.configPath, 'utf8')).toBe(before);
  });
});

test.describe('the server form', () => {
  test('checks the name and variable names as they are typed, saves nothing bad, and asks before leaving with edits', async ({ page, harbor }) => {
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Add server' }).first().click();
    const form = page.getByRole('form', { name: 'Add a server' });

    // The registry's naming rule, said while typing (no Save pressed).
    await form.getByRole('textbox', { name: 'Name' }).fill('notes ');
    await expect(form.getByText(/starts or ends with a space/)).toBeVisible();
    await form.getByRole('textbox', { name: 'Name' }).fill('notes');
    await expect(form.getByText(/starts or ends with a space/)).toBeHidden();
    await form.getByRole('textbox', { name: 'Command' }).fill(NODE);

    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByRole('textbox', { name: 'Name of variable 1' }).fill('bad name');
    await expect(form.getByText(/cannot contain spaces/)).toBeVisible();
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByRole('textbox', { name: 'Name of variable 1' })).toBeFocused();
    expect(JSON.parse(readFileSync(harbor.configPath, 'utf8'))).toEqual({ mcpServers: {} });

    // Leaving through the navigation with edits: asked first.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(form.getByRole('textbox', { name: 'Name of variable 1' })).toHaveValue('bad name');
    await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools', exact: true }).click();
    await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
    expect(JSON.parse(readFileSync(harbor.configPath, 'utf8'))).toEqual({ mcpServers: {} });
  });
});

test.describe('a remote server never signed in', () => {
  // Port 9 (discard) has nothing listening here: the server cannot connect, and no sign-in is held.
  test.use({ harborOptions: { registry: { mcpServers: { remote: { url: 'http://127.0.0.1:9/mcp', trusted: true } } } } });

  test('offers Sign in only (no Sign out)', async ({ page, harbor }) => {
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    const detail = await openServer(page, 'remote');
    await expect(detail.getByRole('button', { name: 'Sign in to remote' })).toBeVisible({ timeout: 30_000 });
    await expect(detail.getByRole('button', { name: 'Sign out of remote' })).toHaveCount(0);
  });
});
