/**
 * The first hour's setup screens against a real Host (issue #31, items 1, 11, 13): chat without
 * a model says so once and offers the model form in place, with the composer off until chat can
 * work; removing the model asks first; the keychain warning of the server form is one line until
 * a value is typed. With
 * HARBOR_SHOTS_DIR set, the screens are saved there too (test/e2e/shots.ts).
 */
import { readFileSync } from 'node:fs';
import { startScriptedModel } from '../fixtures/model/scripted-model';
import { collectErrors, expect as baseExpect, expectNoAxeViolations, goTo, test } from './servers-fixture';
import { shot } from './shots';

// A shared, busy machine: generous waits (every wait is for something on the page, never a sleep).
test.setTimeout(180_000);
const expect = baseExpect.configure({ timeout: 20_000 });

test.describe('no model yet', () => {
  test('1: "Choose a model" opens the model form in place; the composer is off and says why; no raw code, nothing said twice', async ({ page, harbor }) => {
    const model = await startScriptedModel({ script: [{ text: 'Hello from the scripted model.' }] });
    try {
      const errors = collectErrors(page);
      await page.goto(harbor.url);
      const conversation = page.getByRole('region', { name: 'Conversation' });
      const choose = conversation.getByRole('button', { name: 'Choose a model' });
      await expect(choose).toBeVisible();
      // The composer cannot send, and says why (its description names the fix).
      const composer = conversation.getByRole('textbox', { name: 'Message' });
      await expect(composer).toBeDisabled();
      await expect(composer).toHaveAccessibleDescription(/Choose a model/);
      // No raw code, no config-file recipe in a monospace block, no paragraph said twice.
      await expect(page.locator('body')).not.toContainText('MODEL_NOT_CONFIGURED');
      await expect(conversation.locator('pre')).toHaveCount(0);
      await expect(conversation.getByText('No chat model is configured', { exact: false })).toHaveCount(0);
      await shot(page, '1');
      await expectNoAxeViolations(page);

      // The form opens in place: the page stays the chat.
      await choose.click();
      const form = conversation.getByRole('region', { name: 'Model', exact: true });
      await expect(form).toBeVisible();
      expect(new URL(page.url()).hash).not.toContain('settings');
      await form.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'OpenAI-compatible (Ollama, LM Studio, vLLM…)' });
      await form.getByRole('textbox', { name: 'Model' }).fill('scripted');
      await form.getByRole('textbox', { name: /Address/ }).fill(model.baseURL);
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: 'Save model' }).click();

      // Chat works now: the composer is on, and a message gets its answer.
      await expect(composer).toBeEnabled({ timeout: 20_000 });
      await expect(choose).toHaveCount(0);
      await composer.fill('Hello?');
      await composer.press('Enter');
      await expect(conversation.getByText('Hello from the scripted model.')).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('body')).not.toContainText('MODEL_NOT_CONFIGURED');
      expect(errors).toEqual([]);
    } finally {
      await model.close();
    }
  });
});

test.describe('a model set', () => {
  test.use({ harborOptions: { registry: { mcpServers: {}, model: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'scripted' } } } });

  test('11: "Remove model" asks inline first; Cancel keeps it, Remove removes it', async ({ page, harbor }) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Settings');
    const panel = page.getByRole('region', { name: 'Model', exact: true });
    await panel.getByRole('button', { name: 'Remove model' }).click();
    // Nothing happened yet: a confirmation in place, focus on its safe choice.
    const confirm = panel.getByRole('group', { name: 'Confirm removing the model' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expect(panel.getByRole('textbox', { name: 'Model' })).toHaveValue('scripted');
    await shot(page, '11');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Remove model' })).toBeFocused();
    // Escape backs out too.
    await panel.getByRole('button', { name: 'Remove model' }).click();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    // The file still names the model: nothing was removed by asking.
    expect(readFileSync(harbor.configPath, 'utf8')).toContain('"model"');

    await panel.getByRole('button', { name: 'Remove model' }).click();
    await confirm.getByRole('button', { name: 'Remove the model' }).click();
    await expect(panel.getByText('No model is set, so chat is off.', { exact: false })).toBeVisible();
    // Said quietly, not as a success.
    await expect(panel.locator('.notice--ok')).toHaveCount(0);
    await expect.poll(() => readFileSync(harbor.configPath, 'utf8')).not.toContain('"model"');
    expect(errors).toEqual([]);
  });
});

test.describe('no keychain', () => {
  // No session bus: the keychain cannot be reached, as on a machine without one.
  let bus: string | undefined;
  test.beforeAll(() => {
    bus = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/harbor-e2e-no-bus';
  });
  // The worker runs other spec files after this one: they get the bus they had.
  test.afterAll(() => {
    if (bus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = bus;
  });

  test('13: the keychain warning is one line, expanded where a value is typed', async ({ page, harbor }) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await page.getByRole('button', { name: 'Add server' }).first().click();
    const form = page.getByRole('form', { name: 'Add a server' });
    await expect(form.getByRole('textbox', { name: 'Name' })).toBeVisible();
    // One line, no explanation yet: nothing secret is being entered.
    const line = page.getByRole('status').filter({ hasText: 'keychain' });
    await expect(line).toHaveCount(1);
    const box = await line.boundingBox();
    const lineHeight = await line.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    expect(box!.height).toBeLessThan(lineHeight * 2.2);
    await expect(page.getByText('Secret values cannot be stored until it can', { exact: false })).toHaveCount(0);
    await shot(page, '13');
    await expectNoAxeViolations(page);

    // A value being entered: the explanation opens there, inside the variables.
    await form.getByRole('button', { name: 'Add variable' }).click();
    const variables = form.getByRole('group', { name: 'Environment variables' });
    await expect(variables.getByText('keychain cannot be reached', { exact: false })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(errors).toEqual([]);
  });
});
