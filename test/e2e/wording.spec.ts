/**
 * Consent and elicitation wording in context, end to end: a tool run by hand (no conversation)
 * is never offered "this conversation", every tool gets a risk line (a tool without hints "may
 * change data"), the run's time counts from the approval, not from the click on Run (the person's
 * reading time is not the tool's), and a server's question explains Decline against Cancel.
 * Debian Chromium, `harbor web`, the feature fixture, untrusted.
 */
import AxeBuilder from '@axe-core/playwright';
import { FEATURE_SERVER, NODE, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

test.use({ harborOptions: { registry: { mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER], trusted: false } } } } });

const THINK_MS = 2_500;

test('a manual run: no conversation choices, a risk line, and the time from approval to result', async ({ page, harbor }, testInfo) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(harbor.url);
  const dialog = page.getByRole('dialog');
  // An untrusted server is started only after the person says so.
  await expect(dialog.getByRole('heading', { name: 'Start the server “feature”?' })).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Start this time' }).click();
  await goTo(page, 'Tools');
  await pickServer(page, 'feature');
  await expect(page.getByRole('list', { name: 'Tools of feature' })).toBeVisible({ timeout: 30_000 });

  const panel = await runTool(page, 'echo', { text: 'hi' });
  await expect(dialog.getByRole('heading', { name: 'Allow feature to run “echo”?' })).toBeVisible();
  await expect(dialog.getByText('You are running this tool by hand.')).toBeVisible();
  await expect(dialog.locator('footer').getByRole('button')).toHaveText(['Deny', 'Allow once', 'Always allow']);
  await expect(dialog.getByText('May change data: the server does not say whether it only reads or also deletes.')).toBeVisible();
  await screenshot(page, 'consent-manual-light-1000x700', testInfo);
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations.map((v) => v.id)).toEqual([]);
  // The person reads for a while before allowing.
  await page.waitForTimeout(THINK_MS);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  const heading = panel.getByRole('region', { name: 'Result' }).getByRole('heading');
  await expect(heading).toContainText('after your approval');
  const ms = Number(/\((\d+) ms/.exec((await heading.textContent()) ?? '')?.[1]);
  expect(ms).toBeLessThan(THINK_MS);

  // A question from the server during a manual run explains Decline against Cancel.
  await runTool(page, 'ask_name');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog.getByRole('heading', { name: '“feature” asks for your input' })).toBeVisible();
  await expect(dialog.getByText(/Decline tells the server “no”: you refuse what it asks\. Cancel dismisses the question without answering/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Decline' })).toHaveAttribute('title', 'Tell the server no');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'elicitation-manual-dark-1000x700', testInfo);
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations.map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByRole('region', { name: /^Run ask_name/ }).getByRole('region', { name: 'Result' })).toContainText('declined');
  expect(errors).toEqual([]);
});
