/**
 * A server that crashes during a call is restarted by Harbor; its card keeps what the dead process
 * said last beside the restart ("crashy crashed: CRASHY-FATAL: … (exit 3). Restarted."), though
 * the new process's stderr is empty of it. Real Host, the crashing fixture server, real Chromium.
 */
import { CRASH_SERVER, NODE, allowCallsWithoutAsking, expect, expectNoAxeViolations, goTo, openServer, pickServer, runTool, serverRow, test } from './servers-fixture';
import { shot } from './shots';

test.use({
  harborOptions: {
    registry: { mcpServers: { crashy: { command: NODE, args: [CRASH_SERVER, '--fatal=CRASHY-FATAL: the disk is on fire', '--exit-code=3'], trusted: true } } },
  },
});

test('after a crash and a restart, the card shows the dead process’s last lines beside the restart', async ({ page, harbor }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(harbor.url);
  await goTo(page, 'Servers');
  await expect(serverRow(page, 'crashy').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await allowCallsWithoutAsking(page, 'crashy');
  await goTo(page, 'Tools');
  await pickServer(page, 'crashy');
  const panel = await runTool(page, 'work');
  await expect(panel.getByRole('alert')).toContainText('crashy', { timeout: 30_000 });

  await goTo(page, 'Servers');
  await expect(serverRow(page, 'crashy').getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  const detail = await openServer(page, 'crashy');
  await shot(page, '9');
  const notice = detail.getByRole('status').filter({ hasText: 'Restarted.' });
  await expect(notice).toHaveText(/^crashy crashed: CRASHY-FATAL: the disk is on fire \(exit 3\)\. Restarted\./);
  // Its last lines, whole, beside the notice.
  await notice.getByText('Its last output').click();
  await expect(notice.locator('pre')).toHaveText('about to crash (call 1)\nCRASHY-FATAL: the disk is on fire');
  await shot(page, '9-open');
  await expectNoAxeViolations(page, '.server-detail');
});
