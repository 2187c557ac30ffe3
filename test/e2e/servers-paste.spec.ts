/**
 * #31.4: the add-server form takes what people copy from a README or another app. A whole command
 * line pasted into Command becomes the program and its arguments (said, with a way back); a
 * `mcpServers` snippet fills the form, or, with several servers, names them and adds them all
 * through the import code; "Test connection" runs the connection doctor on the unsaved entry; and
 * a saved entry holding a whole command line is never blamed on its program ("node" exists).
 */
import { join } from 'node:path';
import { FEATURE_SERVER, NODE, collectErrors, expect, expectNoAxeViolations, goTo, openServer, serverRow, test } from './servers-fixture';
import type { Locator, Page } from '@playwright/test';

const SHOTS = '/work/wt/shots/31c';

// Two Harbors' worth of work (the doctor, two adds, axe in both themes) on a shared two-core machine.
test.describe.configure({ timeout: 180_000 });

/** A paste as the browser makes it: a `paste` event carrying the text, on the focused field. */
async function paste(field: Locator, text: string): Promise<void> {
  await field.focus();
  await field.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    // An input the page did not handle takes the text, as a real paste does.
    if (element.dispatchEvent(event) && element instanceof HTMLInputElement) {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(element, value);
      element.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }, text);
}

async function openAddForm(page: Page) {
  await goTo(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).first().click();
  return page.getByRole('form', { name: 'Add a server' });
}

test('a pasted command line is split and shown; Test connection diagnoses it unsaved; it is added and ready', async ({ page, harbor }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(harbor.url);
  const form = await openAddForm(page);
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('pasted');
  await paste(form.getByRole('textbox', { name: 'Command' }), `${NODE} ${FEATURE_SERVER} --name "pasted server"`);
  await expect(form.getByRole('textbox', { name: 'Command' })).toHaveValue(NODE);
  const args = form.getByRole('list', { name: 'Arguments' }).getByRole('textbox');
  await expect(args).toHaveCount(3);
  await expect(form.getByRole('textbox', { name: 'Argument 3' })).toHaveValue('pasted server');
  await expect(form.getByText('Read as a whole command line')).toContainText('3 arguments');
  await page.screenshot({ path: join(SHOTS, '4-after.png'), fullPage: true });

  await form.getByRole('button', { name: 'Test connection' }).click();
  const doctor = form.getByRole('region', { name: 'Diagnosis of pasted' });
  await expect(doctor.getByText('Every step passed.')).toBeVisible({ timeout: 30_000 });
  await expect(doctor).toContainText(`${NODE} exists and can be run`);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: join(SHOTS, '4-test-connection-after.png'), fullPage: true });

  await form.getByRole('switch', { name: 'Trusted' }).check();
  await form.getByRole('button', { name: 'Add server' }).click();
  const detail = page.getByRole('article', { name: 'pasted' });
  await expect(detail.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});

test('a pasted snippet of one server fills the form; of several, names them and adds them all', async ({ page, harbor }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(harbor.url);
  const form = await openAddForm(page);
  await paste(form.getByRole('textbox', { name: 'Command' }), JSON.stringify({ mcpServers: { notes: { command: NODE, args: [FEATURE_SERVER, '--name', 'notes'], env: { MODE: 'demo' } } } }, null, 2));
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('notes');
  await expect(form.getByRole('textbox', { name: 'Command' })).toHaveValue(NODE);
  await expect(form.getByRole('textbox', { name: 'Argument 1' })).toHaveValue(FEATURE_SERVER);
  await expect(form.getByRole('textbox', { name: 'Name of variable 1' })).toHaveValue('MODE');

  const two = { servers: { alpha: { type: 'stdio', command: NODE, args: [FEATURE_SERVER, '--name', 'alpha'] }, beta: { command: NODE, args: [FEATURE_SERVER, '--name', 'beta'] } } };
  await paste(form.getByRole('textbox', { name: 'Name', exact: true }), JSON.stringify(two));
  const found = form.getByRole('region', { name: 'Servers found in the pasted text' });
  await expect(found.getByText('Found 2 servers in the pasted text: alpha, beta.')).toBeVisible();
  await expect(found.getByRole('button', { name: 'Add all 2' })).toBeEnabled();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: join(SHOTS, '4-snippet-after.png'), fullPage: true });
  await found.getByRole('button', { name: 'Add all 2' }).click();
  await expect(serverRow(page, 'alpha')).toBeVisible();
  await expect(serverRow(page, 'beta')).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe('a saved entry holding a whole command line', () => {
  test.use({ harborOptions: { registry: { mcpServers: { whole: { command: `node ${FEATURE_SERVER} --name whole`, trusted: true } } } } });

  test('its error says it looks like a whole command line, never that "node" was not found', async ({ page, harbor }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await expect(serverRow(page, 'whole').getByText('Error', { exact: true })).toBeVisible({ timeout: 30_000 });
    const detail = await openServer(page, 'whole');
    await expect(detail.getByText('This looks like a whole command line', { exact: true })).toBeVisible();
    await expect(detail.getByText('“node” was not found')).toHaveCount(0);
    await page.screenshot({ path: join(SHOTS, '4-saved-error-after.png'), fullPage: true });
  });
});
