/**
 * A sandbox refusal names its fix on the server's card (issue 28): a real sandboxed server (the
 * sandbox-probe fixture under bubblewrap) is refused a write outside its allowed folders; its card
 * in the app says what was refused and the registry rule that would allow it, with the one-click
 * change beside it. Skipped, with the reason, where this machine cannot run the sandbox.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxRuntime } from '../../main/host/sandbox/runtime';
import { FIXTURES, NODE, allowCallsWithoutAsking, collectErrors, expect, goTo, openServer, pickServer, runTool, screenshot, test } from './servers-fixture';

const PROBE = join(FIXTURES, 'sandbox-probe.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'harbor-e2e-sandbox-'));
const outside = join(scratch, 'outside');
mkdirSync(outside);

/** Why servers cannot be sandboxed here (the real check), as test/helpers/sandbox.ts asks it without vitest. */
async function sandboxProblem(): Promise<string | undefined> {
  const runtime = new SandboxRuntime({ dataDir: mkdtempSync(join(scratch, 'check-')) });
  try {
    const availability = await runtime.availability();
    return availability.available ? undefined : `${availability.reason}; ${availability.fix}`;
  } finally {
    await runtime.dispose();
  }
}
const problem = process.platform === 'linux' ? await sandboxProblem() : 'the sandbox e2e runs on Linux';

test.describe('sandbox refusals on the card', () => {
  test.skip(problem !== undefined, `the sandbox cannot run here: ${problem}`);
  test.use({ harborOptions: { registry: { mcpServers: { probe: { command: NODE, args: [PROBE], sandbox: true, trusted: true } } } } });
  test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test("a refused write shows on the server's card with the registry rule that allows it", async ({ page, harbor }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(harbor.url);
    await allowCallsWithoutAsking(page, 'probe');
    await goTo(page, 'Tools');
    await pickServer(page, 'probe');
    await expect(page.getByRole('list', { name: 'Tools of probe' })).toBeVisible({ timeout: 60_000 });
    const panel = await runTool(page, 'write_file', { path: join(outside, 'x.txt'), text: 'x' });
    await expect(panel.getByText(/"ok":\s*false/).first()).toBeVisible({ timeout: 30_000 });

    await goTo(page, 'Servers');
    const card = await openServer(page, 'probe');
    const refused = card.getByRole('region', { name: 'What the sandbox refused probe' });
    await expect(refused.getByText(join(outside, 'x.txt'))).toBeVisible({ timeout: 30_000 });
    await expect(refused.getByText(`"sandbox": { "allowWrite": [${JSON.stringify(outside)}] }`)).toBeVisible();
    await expect(refused.getByRole('button', { name: `Allow writing to ${outside}` })).toBeVisible();
    await screenshot(page, 'servers-sandbox-refusal', testInfo);
    expect(errors).toEqual([]);
  });
});
