/**
 * The Servers view against a real Host in browser mode: the compact list (state, era, tools, cost)
 * with its search and the selected server's details; an error that wraps inside its box and is
 * said once; adding a stdio server through the form (a secret env row goes to the keychain) and
 * seeing it ready; a crashing server shows restarting, then ready.
 */
import { readFileSync } from 'node:fs';
import {
  CRASH_SERVER,
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
  scrollsSideways,
  serverRow,
  test,
} from './servers-fixture';

const SECRET_VALUE = `e2e-form-secret-${Date.now()}`;
/** A long PATH with a 240-character folder name in it (nothing to break at but the box's edge): its error must wrap, not widen the page. */
const LONG_PATH = [`/opt/harbore2e/${'x'.repeat(240)}/bin`, ...Array.from({ length: 40 }, (_, i) => `/opt/harbore2e/aratherlongdirectoryname${i}/bin`)].join(':');

test.describe('the list and the details', () => {
  test.use({
    harborOptions: {
      registry: {
        mcpServers: {
          feature: { command: NODE, args: [FEATURE_SERVER, '--tools-count', '6'], trusted: true },
          second: { command: NODE, args: [FEATURE_SERVER, '--name', 'second'], env: { MODE: 'demo', LOG_LEVEL: 'info' }, trusted: true },
          missing: { command: 'harbor-e2e-no-such-program', args: ['--serve'], env: { PATH: LONG_PATH }, trusted: true },
          paused: { command: NODE, args: [FEATURE_SERVER], enabled: false },
        },
      },
    },
  });

  test('one compact row per server with state, era, tools and cost; search; the details of the one picked', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    const list = page.getByRole('list', { name: 'Servers' });
    await expect(list.getByRole('link')).toHaveCount(4);

    const feature = serverRow(page, 'feature');
    await expect(feature.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(feature).toContainText('2026-07-28');
    await expect(feature).toContainText('15 tools');
    await expect(feature).toContainText(/~[\d.]+k? tokens/);
    await expect(serverRow(page, 'missing').getByText('Error', { exact: true })).toBeVisible();
    await expect(serverRow(page, 'paused').getByText('Disabled', { exact: true })).toBeVisible();
    // Compact: a row is a line and its facts, not a card.
    for (const row of await list.getByRole('link').all()) expect((await row.boundingBox())!.height).toBeLessThan(56);

    // The details of the server picked: its state, actions, configuration (names, never values), what it offers.
    const detail = await openServer(page, 'second');
    await expect(page).toHaveURL(/#\/servers\/second$/);
    await expect(detail.getByRole('button', { name: 'Restart second' })).toBeVisible({ timeout: 30_000 });
    await expect(detail.getByRole('button', { name: 'Stop second' })).toBeVisible();
    await expect(detail.getByRole('button', { name: 'Edit second' })).toBeVisible();
    await expect(detail.getByRole('switch', { name: 'Trust second' })).toBeChecked();
    await expect(detail.getByText('Local program (stdio)')).toBeVisible();
    await expect(detail.getByText('LOG_LEVEL')).toBeVisible();
    await expect(detail.getByText('info', { exact: true })).toBeHidden();
    await expect(detail.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(detail.getByText('second 1.0.0')).toBeVisible();
    await expect(detail.getByRole('list', { name: 'Capabilities' })).toContainText('tools');
    await detail.getByText('Recent output (stderr)').click();
    await expect(detail.getByRole('button', { name: 'Refresh' })).toBeVisible();

    // Search narrows the list by name, command or what the server calls itself.
    const search = page.getByRole('searchbox', { name: 'Search servers' });
    await search.fill('no-such');
    await expect(list.getByRole('link')).toHaveCount(1);
    await expect(serverRow(page, 'missing')).toBeVisible();
    await search.fill('zzz');
    await expect(page.getByText('No server matches “zzz”.')).toBeVisible();
    await search.fill('');

    await openServer(page, 'feature');
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshotBothThemes(page, 'servers', testInfo);
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshotBothThemes(page, 'servers', testInfo);
    expect(errors).toEqual([]);
  });

  test('a long error wraps inside its box, is said once with the fix first, and has its details on demand', async ({ page, harbor }, testInfo) => {
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    const detail = await openServer(page, 'missing');
    const box = detail.getByRole('alert');
    await expect(box).toBeVisible({ timeout: 30_000 });
    // The headline in plain words, then the fix; no raw code, no second copy of the message.
    await expect(box.getByText('“harbor-e2e-no-such-program” was not found')).toBeVisible();
    await expect(box).toContainText('give its full path in Command');
    const said = await box.innerText();
    expect(said).not.toContain('SPAWN_FAILED');
    expect(said).not.toContain('aratherlongdirectoryname');
    expect(said.split('was not found').length - 1).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);

    // Details: the Host's whole message (with the PATH) and the code, still inside the window.
    await box.getByText('Details').click();
    await expect(box.getByText(/on PATH \(\/opt\/harbore2e/)).toBeVisible();
    await expect(box.getByText('SPAWN_FAILED')).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    const boxWidth = (await box.boundingBox())!.width;
    expect(boxWidth).toBeLessThan(1000);
    // Wrapped, not hidden behind a sideways scroll inside the box either.
    for (const part of await box.locator('*').all()) {
      const sideways = await part.evaluate((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'inline');
      expect(sideways, await part.evaluate((el) => el.className || el.tagName)).toBe(false);
    }
    await screenshotBothThemes(page, 'servers-error', testInfo);
    await expectNoAxeViolations(page);

    // The Tools page says the same in one line (#31.10), does not widen, and its details are one click away.
    await goTo(page, 'Tools');
    await pickServer(page, 'missing');
    const line = page.getByRole('list', { name: 'Servers not ready' }).getByRole('listitem').filter({ hasText: 'missing' });
    await expect(line).toContainText('“harbor-e2e-no-such-program” was not found');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshotBothThemes(page, 'tools-error', testInfo);
    await line.getByRole('link', { name: 'Details of missing' }).click();
    await expect(page.getByRole('alert').getByText('“harbor-e2e-no-such-program” was not found')).toBeVisible();
  });
});

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
    await screenshot(page, 'servers-add-light-1280x720', testInfo);
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Add server' }).click();

    // Added in the form, started by the Host (as every other way of adding a server does).
    const detail = page.getByRole('article', { name: 'fixture' });
    await expect(detail.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(detail.getByText('2026-07-28 (stateless)')).toBeVisible();
    await expect(detail.getByText(/^\d+ tools, \d+ resources, 1 prompt$/)).toBeVisible();
    await expect(detail.getByText(/~[\d.,]+k? tokens/)).toBeVisible();
    await expect(detail.getByText('FIXTURE_TOKEN')).toBeVisible();
    await expect(detail.getByText('(keychain)')).toBeVisible();

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
    await detail.getByRole('button', { name: 'Edit fixture' }).click();
    const edit = page.getByRole('form', { name: 'Edit fixture' });
    await expect(edit.getByText('Set', { exact: true })).toBeVisible();
    await expect(edit.getByText('fixture-fixture_token')).toBeVisible();
    expect(await page.content()).not.toContain(SECRET_VALUE);
    await screenshotBothThemes(page, 'servers-edit', testInfo);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('article', { name: 'fixture' })).toBeVisible();
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
    const row = serverRow(page, 'crashy');
    await expect(row.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
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
    await expect(row.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await goTo(page, 'Activity');
    const events = page.getByRole('list', { name: 'Server events' });
    await expect(events.getByText('is restarting (attempt 1 of 5)')).toBeVisible();
    await expect(events.getByText('is ready').first()).toBeVisible();
  });
});
