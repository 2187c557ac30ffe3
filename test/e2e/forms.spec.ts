/**
 * A tool's form built from its JSON Schema (RJSF), driven by the keyboard in Debian Chromium
 * through `harbor web`: a list of objects edited item by item (add, reorder), a select for an
 * enum, number boxes with the schema's bounds (a bad number is reported next to the field and the
 * message goes once it is fixed), a checkbox, a nested object, a oneOf's alternatives. The forms
 * fixture server echoes the arguments it received, so the test checks exactly what was sent. axe
 * finds nothing on the form in either theme.
 */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { FIXTURES, NODE, collectErrors, expect, goTo, pickServer, screenshotBothThemes, test } from './servers-fixture';

const FORMS_SERVER = join(FIXTURES, 'modern', 'forms-server.mjs');

test.use({ harborOptions: { registry: { mcpServers: { forms: { command: NODE, args: [FORMS_SERVER], trusted: true } } } } });

/** Focuses a field and types into it, key by key. */
async function type(page: Page, field: Locator, text: string): Promise<void> {
  await field.focus();
  await page.keyboard.type(text);
}

/** Presses a key on a focused control (a button, a checkbox, a select). */
async function press(field: Locator, key: string): Promise<void> {
  await field.focus();
  await field.press(key);
}

async function expectNoAxeViolationsIn(page: Page, selector: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
    expect(violations.map((v) => `${theme}: ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a tool form with a list of objects, an enum, numbers, a checkbox, a nested object and a oneOf, filled by keyboard', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.goto(harbor.url);
  await goTo(page, 'Tools');
  await pickServer(page, 'forms');
  await page.getByRole('list', { name: 'Tools of forms' }).getByRole('button', { name: 'Run plan_run', exact: true }).click({ timeout: 30_000 });
  const panel = page.getByRole('region', { name: /^Run plan_run/ });

  // The list of steps is a list of sub-forms (not a JSON box); being required with minItems 1, it starts with one.
  const steps = panel.getByRole('group', { name: 'Steps' });
  await expect(steps).toBeVisible();
  await expect(steps.getByRole('textbox', { name: /JSON/ })).toHaveCount(0);
  const first = steps.getByRole('group', { name: 'Step 1' });
  await type(page, first.getByRole('textbox', { name: /^Name/ }), 'build');
  await type(page, first.getByRole('spinbutton', { name: /^Minutes/ }), '5');
  await press(steps.getByRole('button', { name: 'Add to Steps' }), 'Enter');
  const second = steps.getByRole('group', { name: 'Step 2' });
  await type(page, second.getByRole('textbox', { name: /^Name/ }), 'test');
  await type(page, second.getByRole('spinbutton', { name: /^Minutes/ }), '7');
  await press(steps.getByRole('button', { name: 'Move item 2 up' }), 'Enter');
  await expect(steps.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: /^Name/ })).toHaveValue('test');

  // An enum of five is a select; typing picks an option.
  const priority = panel.getByRole('combobox', { name: /^Priority/ });
  await press(priority, 'h');
  await expect(priority.locator('option:checked')).toHaveText('high');

  // Numbers are number boxes with the schema's bounds.
  const ratio = panel.getByRole('spinbutton', { name: /^Ratio/ });
  await expect(ratio).toHaveAttribute('type', 'number');
  await expect(ratio).toHaveAttribute('min', '0');
  await expect(ratio).toHaveAttribute('max', '1');
  await type(page, ratio, '1.5');

  await press(panel.getByRole('checkbox', { name: 'Notify me' }), ' ');
  await expect(panel.getByRole('checkbox', { name: 'Notify me' })).toBeChecked();

  const limits = panel.getByRole('group', { name: /^Limits/ });
  await type(page, limits.getByRole('spinbutton', { name: /^Retries/ }), '2');

  // The oneOf: a selector of its titled alternatives, then the chosen one's fields.
  const target = panel.getByRole('group', { name: 'Target' });
  const kind = target.getByRole('combobox', { name: 'Target: which kind' });
  await expect(kind.locator('option')).toHaveText(['A web address', 'A local path']);
  await press(kind, 'ArrowDown');
  await expect(kind.locator('option:checked')).toHaveText('A local path');
  await type(page, target.getByRole('textbox', { name: /^Path/ }), '/srv/data');

  // A bad number is caught before anything is sent, next to its field, with the focus on it.
  const run = panel.getByRole('button', { name: 'Run', exact: true });
  await press(run, 'Enter');
  await expect(panel.getByText('Must be at most 1.')).toBeVisible();
  await expect(ratio).toHaveAttribute('aria-invalid', 'true');
  await expect(ratio).toBeFocused();
  await expect(panel.getByRole('region', { name: 'Result' })).toHaveCount(0);
  await expectNoAxeViolationsIn(page, '.schema-form__box');
  await screenshotBothThemes(page, 'tool-form', testInfo);

  // Fixed as typed: the message goes away.
  await ratio.press('Control+a');
  await page.keyboard.type('0.5');
  await expect(panel.getByText('Must be at most 1.')).toHaveCount(0);

  await press(run, 'Enter');
  const result = panel.getByRole('region', { name: 'Result' });
  await expect(result).toContainText(
    'received {"steps":[{"name":"test","minutes":7},{"name":"build","minutes":5}],"priority":"high","ratio":0.5,"notify":true,"limits":{"retries":2},"target":{"kind":"path","path":"/srv/data"}}',
    { timeout: 30_000 },
  );
  await expectNoAxeViolationsIn(page, '.schema-form__box');
  expect(errors).toEqual([]);
});
