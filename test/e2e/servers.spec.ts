/**
 * The Servers view against a real Host in browser mode: add a stdio server through the form (a
 * secret env row goes to the keychain) and see it ready; a crashing server shows restarting, then
 * ready; raw JSON editing marks a problem at its line and writes nothing until it is fixed.
 */
import { readFileSync } from 'node:fs';
import { CRASH_SERVER, FEATURE_SERVER, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const SECRET_VALUE = `e2e-form-secret-${Date.now()}`;

test.describe('adding a server through the form', () => {
  test('a stdio server added in the form becomes ready; its secret env value goes to the keychain, never to the file or the page', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await expect(page.getByText('No servers configured')).toBeVisible();

    await page.getByRole('button', { name: 'Add server' }).first().click();
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name' }).fill('fixture');
    // Pasting a whole command line, then splitting it into command and arguments.
    await form.getByRole('textbox', { name: 'Command' }).fill(`${NODE} ${FEATURE_SERVER} --name e2e-fixture`);
    await form.getByRole('button', { name: 'Split into command and arguments' }).click();
    await expect(form.getByRole('textbox', { name: 'Command' })).toHaveValue(NODE);
    const args = form.getByRole('list', { name: 'Arguments' });
    await expect(args.getByRole('textbox')).toHaveCount(3);
    // Reorder and remove rows with the keyboard-reachable buttons.
    await form.getByRole('button', { name: 'Move argument 1 down' }).click();
    await expect(form.getByRole('textbox', { name: 'Argument 2' })).toHaveValue(FEATURE_SERVER);
    await form.getByRole('button', { name: 'Move argument 2 up' }).click();
    await expect(form.getByRole('textbox', { name: 'Argument 1' })).toHaveValue(FEATURE_SERVER);

    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByRole('textbox', { name: 'Name of variable 1' }).fill('FIXTURE_TOKEN');
    await form.getByRole('switch', { name: 'FIXTURE_TOKEN is secret' }).check();
    await form.getByLabel('Secret value of FIXTURE_TOKEN').fill(SECRET_VALUE);
    await form.getByRole('switch', { name: 'Trusted' }).check();
    await form.getByRole('button', { name: 'Add server' }).click();

    const card = page.getByRole('article', { name: 'fixture' });
    await expect(card.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText('2026-07-28 (modern, stateless)')).toBeVisible();
    await expect(card.getByText(/^\d+ tools, \d+ resources, 1 prompt$/)).toBeVisible();
    await expect(card.getByText(/~[\d,]+ tokens/)).toBeVisible();

    const saved = readFileSync(harbor.configPath, 'utf8');
    expect(JSON.parse(saved).mcpServers.fixture).toMatchObject({
      command: NODE,
      args: [FEATURE_SERVER, '--name', 'e2e-fixture'],
      env: { FIXTURE_TOKEN: '${secret:fixture-fixture_token}' },
      trusted: true,
    });
    expect(saved).not.toContain(SECRET_VALUE);
    const secrets = await harbor.cli(['--json', 'secret', 'list']);
    expect(JSON.parse(secrets.stdout)).toContain('fixture-fixture_token');

    // Editing shows the secret only as "set".
    await card.getByRole('button', { name: 'Edit fixture' }).click();
    const edit = page.getByRole('form', { name: 'Edit fixture' });
    await expect(edit.getByText('Set', { exact: true })).toBeVisible();
    await expect(edit.getByText('fixture-fixture_token')).toBeVisible();
    expect(await page.content()).not.toContain(SECRET_VALUE);
    await screenshot(page, 'view-servers-edit', testInfo);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await screenshot(page, 'view-servers-light', testInfo);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'view-servers-dark', testInfo);
    expect(errors).toEqual([]);
  });

  test('the form explains what is wrong before saving anything', async ({ page, harbor }) => {
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Add server' }).first().click();
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByText('Give the server a name.')).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
    await form.getByRole('radio', { name: 'Remote server (URL)' }).check();
    await form.getByRole('textbox', { name: 'Name' }).fill('remote');
    await form.getByRole('textbox', { name: 'URL' }).fill('ftp://example.com');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByText('Must be an http:// or https:// address.')).toBeVisible();
    expect(JSON.parse(readFileSync(harbor.configPath, 'utf8'))).toEqual({ mcpServers: {} });
  });
});

test.describe('a crashing server', () => {
  test.use({ harborOptions: { registry: { mcpServers: { crashy: { command: NODE, args: [CRASH_SERVER], trusted: true } } } } });

  test('shows restarting (with its attempt), then ready again', async ({ page, harbor }) => {
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    const card = page.getByRole('article', { name: 'crashy' });
    await expect(card.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await allowCallsWithoutAsking(page, 'crashy');
    await goTo(page, 'Tools');
    await pickServer(page, 'crashy');
    // Every text a state badge shows, recorded as it changes: the restarting state lasts only
    // about a second (the first backoff), too short to catch reliably by polling on 2 cores.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __badges: string[] }).__badges = seen;
      new MutationObserver(() => {
        for (const badge of document.querySelectorAll('.badge')) if (badge.textContent) seen.push(badge.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const panel = await runTool(page, 'work');
    // The call fails with the cause; the server's badge counts the restart, then it is back.
    await expect(panel.getByRole('alert')).toContainText('crashy', { timeout: 15_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __badges: string[] }).__badges.find((t) => t.startsWith('Restarting 1/5'))), { timeout: 15_000 })
      .toBeDefined();
    await expect(page.getByRole('region', { name: /^Run work/ })).toBeVisible();
    await goTo(page, 'Servers');
    await expect(card.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await goTo(page, 'Activity');
    const events = page.getByRole('list', { name: 'Server events' });
    await expect(events.getByText('is restarting (attempt 1 of 5)')).toBeVisible();
    await expect(events.getByText('is ready').first()).toBeVisible();
  });
});

test.describe('editing the configuration as JSON', () => {
  test.use({ harborOptions: { registry: { mcpServers: { keep: { command: NODE, args: [FEATURE_SERVER], trusted: true } } } } });

  test('a problem is shown at its line and nothing is written until it is fixed', async ({ page, harbor }) => {
    const before = readFileSync(harbor.configPath, 'utf8');
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    const editor = page.getByRole('textbox', { name: 'Configuration JSON' });
    await expect(editor).toHaveValue(before);

    const broken = ['{', '  "mcpServers": {', '    "keep": {', `      "command": ${JSON.stringify(NODE)},`, '      "args": [42]', '    }', '  }', '}', ''].join('\n');
    await editor.fill(broken);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const problems = page.getByRole('list', { name: 'Problems' });
    await expect(problems.getByRole('button', { name: 'Line 5' })).toBeVisible();
    await expect(problems).toContainText('mcpServers.keep.args[0]');
    expect(readFileSync(harbor.configPath, 'utf8')).toBe(before);

    // "Line 5" selects that line in the editor.
    await problems.getByRole('button', { name: 'Line 5' }).click();
    await expect(editor).toBeFocused();
    expect(await editor.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('      "args": [42]');

    const fixed = broken.replace('[42]', JSON.stringify([FEATURE_SERVER]));
    await editor.fill(fixed);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Saved. Servers whose configuration changed were restarted')).toBeVisible();
    // Saved as Harbor formats it (atomically), with the fixed content.
    expect(JSON.parse(readFileSync(harbor.configPath, 'utf8'))).toEqual(JSON.parse(fixed));

    // A syntax error names its line too.
    await editor.fill(fixed.replace('"keep": {', '"keep": {,'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Problems' })).toContainText('not valid JSON');
    await expect(page.getByRole('list', { name: 'Problems' }).getByRole('button', { name: /^Line \d+$/ })).toBeVisible();
  });
});
