/**
 * Arguments real servers accept are never refused locally, and what they would refuse is named
 * before anything is sent (#31 items 16 and 17). Real servers from npm, the real built CLI:
 * - @playwright/mcp lists browser_take_screenshot with `scale` required *and* defaulted (what zod's
 *   `.default()` produces) and takes a screenshot without it: Harbor must send that call.
 * - server-everything's args-prompt requires `city`: Harbor names it (exit 2) and sends nothing.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { EVERYTHING_SERVER, NODE, REPO } from '../helpers/host';

const CHROMIUM = '/usr/bin/chromium';
const PLAYWRIGHT_MCP = join(REPO, 'node_modules/@playwright/mcp/cli.js');
const shots = mkdtempSync(join(tmpdir(), 'harbor-pw-'));
const registry = tempRegistry({
  everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] },
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start.
  playwright: { command: NODE, args: [PLAYWRIGHT_MCP, '--headless', '--browser', 'chromium', '--executable-path', CHROMIUM, '--isolated', '--no-sandbox', '--output-dir', shots] },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => {
  registry.remove();
  rmSync(shots, { recursive: true, force: true });
});

describe('a required property with a default counts as present (@playwright/mcp)', () => {
  it.skipIf(!existsSync(CHROMIUM))('sends browser_take_screenshot without `scale`, and the server takes the screenshot', async () => {
    const tools = await runCli([...g, '--json', 'tools', 'playwright', '--yes'], { timeoutMs: 90_000 });
    expect(tools.code, tools.stderr).toBe(0);
    const screenshot = (tools.json<{ name: string; inputSchema: { required?: string[]; properties: Record<string, { default?: unknown }> } }[]>()[0] ?? []).find((t) => t.name === 'browser_take_screenshot');
    // The shape this test is about: if the server stops listing it, the test no longer tests anything.
    expect(screenshot?.inputSchema.required).toContain('scale');
    expect(screenshot?.inputSchema.properties.scale).toHaveProperty('default');

    const run = await runCli([...g, '--trace', 'call', 'playwright', 'browser_take_screenshot', '--args', '{}', '--yes'], { timeoutMs: 120_000 });
    expect(run.stderr).not.toMatch(/"scale" is required/);
    expect(run.stderr).toMatch(/"method":"tools\/call"/);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(shots, { recursive: true }).map(String).some((f) => /\.png$/.test(f))).toBe(true);
  }, 240_000);
});

describe('prompt arguments are checked before anything is sent', () => {
  it('names the missing required argument, exits 2, and never sends prompts/get', async () => {
    const run = await runCli([...g, '--trace', 'prompt', 'everything', 'args-prompt', '--args', '{"state":"Utah"}', '--yes']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/arguments for prompt "args-prompt" of "everything" do not fit: "city" is required \(Name of the city\)/);
    expect(run.stderr).toMatch(/It takes: "city" \(required\), "state"/);
    expect(run.stderr).not.toMatch(/"method":"prompts\/get"/);
  });

  it('gets the prompt when the required argument is there', async () => {
    const run = await runCli([...g, '--json', 'prompt', 'everything', 'args-prompt', '--args', '{"city":"Provo"}', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/What's weather in Provo\?/);
  });
});
