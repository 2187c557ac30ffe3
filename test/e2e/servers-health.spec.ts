/**
 * The servers' health against a real Host in browser mode: the navigation's indicator beside
 * "Servers" counts failed servers and ones waiting for the person; a notification says so when it
 * happens and leads to the server; the Activity page lists the failed launch, also after a reload.
 */
import {
  FEATURE_SERVER,
  NODE,
  collectErrors,
  expect,
  expectNoAxeViolations,
  goTo,
  openServer,
  screenshotBothThemes,
  serverRow,
  test,
} from './servers-fixture';

test.describe('a server that fails and one that waits for the person', () => {
  test.use({
    harborOptions: {
      registry: {
        mcpServers: {
          fine: { command: NODE, args: [FEATURE_SERVER], trusted: true },
          broken: { command: 'harbor-e2e-no-such-program', trusted: true, enabled: false },
          asks: { command: NODE, args: [FEATURE_SERVER, '--name', 'asks'], enabled: false },
        },
      },
    },
  });

  test('the navigation shows them, a notification says so and leads there, and Activity lists the failed launch', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(harbor.url);
    await goTo(page, 'Servers');
    await expect(serverRow(page, 'fine').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const notifications = page.getByRole('region', { name: 'Notifications' });
    // All well: no signal.
    await expect(nav.getByRole('link', { name: /failed|attention/ })).toHaveCount(0);

    // A server that cannot start: a notification, and the indicator.
    const broken = await openServer(page, 'broken');
    await broken.getByRole('switch', { name: 'broken enabled' }).check();
    await expect(notifications.getByText('broken could not start')).toBeVisible({ timeout: 15_000 });
    await expect(nav.getByRole('link', { name: '1 server failed' })).toBeVisible();

    // One that waits for permission to start: asked; denied, it needs attention.
    const asks = await openServer(page, 'asks');
    await asks.getByRole('switch', { name: 'asks enabled' }).check();
    const question = page.getByRole('dialog', { name: 'Start the server “asks”?' });
    await expect(question).toBeVisible({ timeout: 15_000 });
    await question.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(notifications.getByText('asks was not allowed to start')).toBeVisible({ timeout: 15_000 });
    await expect(nav.getByRole('link', { name: '1 server failed, 1 needs your attention' })).toBeVisible();
    await screenshotBothThemes(page, 'servers-health', testInfo);
    await expectNoAxeViolations(page);

    // Waiting is not failing: the details say "Needs you", as the list does.
    await expect(page.getByRole('article', { name: 'asks' }).getByText('Needs you', { exact: true })).toBeVisible();

    // The notification leads to the server, from any page.
    await goTo(page, 'Tools');
    await notifications.getByRole('link', { name: 'Show' }).last().click();
    await expect(page).toHaveURL(/#\/servers\/asks$/);
    await expect(page.getByRole('article', { name: 'asks' })).toBeVisible();

    // Activity lists the failed launch, and still does after a reload (the Host keeps it).
    await goTo(page, 'Activity');
    const events = page.getByRole('list', { name: 'Server events' });
    await expect(events.getByText(/could not start: .*harbor-e2e-no-such-program/)).toBeVisible();
    await page.reload();
    await goTo(page, 'Activity');
    await expect(page.getByRole('list', { name: 'Server events' }).getByText(/could not start: .*harbor-e2e-no-such-program/)).toBeVisible({ timeout: 15_000 });
    // The indicator is the state, not news: it is there after the reload too; no old notification comes back.
    await expect(nav.getByRole('link', { name: '1 server failed, 1 needs your attention' })).toBeVisible();
    await expect(notifications.getByText('broken could not start')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
