/**
 * The Tasks panel in browser mode against the strict modern tasks fixture: tasks the CLI ran are
 * listed (kept in the data folder), a completed one opens its result, a failed one names the
 * server's error; a tool run by hand that becomes a task shows up live with its status message
 * and elapsed time, and Cancel sends tasks/cancel.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, pickServer, runTool, screenshot, test } from './servers-fixture';

const TASKS = join(FIXTURES, 'modern', 'tasks-server.mjs');
const EVENTS = join(tmpdir(), `harbor-e2e-tasks-${process.pid}.log`);
const recorded = () => (existsSync(EVENTS) ? readFileSync(EVENTS, 'utf8').trim().split('\n') : []);

test.describe('Tasks panel', () => {
  test.use({
    harborOptions: {
      registry: { mcpServers: { tasks: { command: NODE, args: [TASKS, '--events-file', EVENTS, '--poll-ms=200'], trusted: true } } },
      before: async ({ cli }) => {
        expect((await cli(['call', 'tasks', 'research', '--args', '{"topic":"tides","steps":2,"stepMs":100}', '--yes'])).code).toBe(0);
        // A failed task is the server answering with an error: exit 1, as the README's table says.
        expect((await cli(['call', 'tasks', 'explode', '--yes'])).code).toBe(1);
      },
    },
  });
  test.afterAll(() => rmSync(EVENTS, { force: true }));

  test('lists kept tasks, opens a result, follows a running task live and cancels it', async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await goTo(page, 'Tasks');
    const list = page.getByRole('list', { name: 'Tasks' });
    const research = list.getByRole('listitem', { name: 'Task tasks › research' });
    const explode = list.getByRole('listitem', { name: 'Task tasks › explode' });
    await expect(research.getByText('Completed', { exact: true })).toBeVisible();
    await expect(explode.getByText('Failed', { exact: true })).toBeVisible();
    await expect(explode).toContainText('The reactor overheated');
    await research.getByRole('button', { name: 'Open result' }).click();
    await expect(research.getByRole('region', { name: 'Result' })).toContainText('Research on tides: done in 2 steps.');

    // A tool run by hand that the server runs as a task.
    await allowCallsWithoutAsking(page, 'tasks');
    await goTo(page, 'Tools');
    await pickServer(page, 'tasks');
    await expect(page.getByRole('list', { name: 'Tools of tasks' })).toBeVisible({ timeout: 30_000 });
    await runTool(page, 'forever');
    await goTo(page, 'Tasks');
    const forever = list.getByRole('listitem', { name: 'Task tasks › forever' });
    await expect(forever.getByText('Working', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(forever.getByText(/^Still working \(\d+\)$/)).toBeVisible();
    const before = await forever.getByText(/^Still working \(\d+\)$/).textContent();
    await expect(forever.getByText(/^Still working \(\d+\)$/)).not.toHaveText(before ?? '');
    await expect(forever.getByText(/^\d+ s$/)).toBeVisible();
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-label', 'Task tasks › forever');
    await screenshot(page, 'view-tasks-light', testInfo);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'view-tasks-dark', testInfo);
    await page.emulateMedia({ colorScheme: 'light' });

    await forever.getByRole('button', { name: 'Cancel' }).click();
    await expect(forever.getByText('Cancelled', { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect.poll(() => recorded().some((l) => l.startsWith('task-cancelled '))).toBe(true);
    expect(recorded().filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
