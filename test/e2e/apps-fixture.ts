/**
 * What the MCP Apps specs share: `harbor web` on a temp registry with real App servers from npm
 * (and the probe fixture), the scripted model on 127.0.0.1, and a local HTTP listener that counts
 * every request (what an app must not reach, or may reach when it declared it). Helpers find a
 * card's app frame, answer consent, and read the apps' audit trail.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Locator, Page } from '@playwright/test';
import { test as base, expect } from './coverage';
import { startScriptedModel, type ScriptEntry, type ScriptedModel } from '../fixtures/model/scripted-model';
import { ROOT } from './chat-fixture';
import { readUrlLine, stopProcess } from './harbor-process';

export const APP_SERVERS = {
  vanilla: 'server-basic-vanillajs',
  react: 'server-basic-react',
  monitor: 'server-system-monitor',
  budget: 'server-budget-allocator',
} as const;
const PROBE = join(ROOT, 'test/fixtures/servers/apps/probe-app-server.mjs');

export interface Listener {
  readonly origin: string;
  /** Paths requested so far. */
  readonly hits: string[];
}

export interface AppsHarbor {
  readonly url: string;
  readonly model: ScriptedModel;
  readonly listener: Listener;
}

export interface AppsOptions {
  readonly script: readonly ScriptEntry[];
  /** Which npm App servers to run (all by default), and the probe fixture. */
  readonly servers?: readonly (keyof typeof APP_SERVERS)[];
  readonly probe?: boolean;
  /** Fixture servers of test/fixtures/servers/apps/ by name (trusted): e.g. { flood: 'flood-app-server.mjs' }. */
  readonly fixtures?: Readonly<Record<string, string>>;
}

type Start = (options: AppsOptions) => Promise<AppsHarbor>;

/** What the listener serves at /navigated.html: a page that tries the bridge of whatever frames it. */
const NAVIGATED_PAGE = `<!doctype html><p>navigated</p><script>
for (let id = 900; id < 905; id += 1) window.parent.postMessage({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_everything', arguments: { path: '/' } } }, '*');
</script>`;

async function listen(): Promise<{ server: Server; listener: Listener }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    if (req.url === '/navigated.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(NAVIGATED_PAGE);
      return;
    }
    // An opaque-origin app may read the answer only if the server allows any origin.
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end('listener says hi');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, listener: { origin: `http://127.0.0.1:${port}`, hits } };
}

export const test = base.extend<{ startApps: Start }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a test uses from this pattern
  startApps: async ({}, use, testInfo) => {
    let stopping = false;
    const started: { child: ChildProcessWithoutNullStreams; model: ScriptedModel; dir: string; server: Server; said: string[] }[] = [];
    await use(async (options) => {
      const dir = mkdtempSync(join(tmpdir(), 'harbor-e2e-apps-'));
      const model = await startScriptedModel({ script: options.script });
      const { server, listener } = await listen();
      const mcpServers: Record<string, unknown> = {};
      for (const name of options.servers ?? (Object.keys(APP_SERVERS) as (keyof typeof APP_SERVERS)[])) {
        mcpServers[name] = { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol', APP_SERVERS[name], 'dist/index.js'), '--stdio'], trusted: true };
      }
      for (const [name, file] of Object.entries(options.fixtures ?? {})) {
        mcpServers[name] = { command: process.execPath, args: [join(ROOT, 'test/fixtures/servers/apps', file)], env: { APPS_LISTENER_ORIGIN: listener.origin }, trusted: true };
      }
      if (options.probe) mcpServers.probe = { command: process.execPath, args: [PROBE], env: { PROBE_CONNECT_ORIGIN: listener.origin }, trusted: true };
      const configPath = join(dir, 'harbor.json');
      writeFileSync(configPath, JSON.stringify({ mcpServers, model: model.modelConfig() }, null, 2));
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'harbor.js'), 'web', '--port', '0', '--config', configPath, '--data-dir', dir], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      // What Harbor said on stderr (a cut socket, a server's trouble), shown when the test fails.
      const said: string[] = [];
      child.stderr.on('data', (chunk: Buffer) => said.push(chunk.toString('utf8')));
      // Gone before the test stopped it: said with how (a crash's code, a signal from elsewhere).
      child.once('exit', (code, signal) => {
        if (!stopping) said.push(`\n[harbor web exited during the test at ${new Date().toISOString()}: code ${code}, signal ${signal}]\n`);
      });
      started.push({ child, model, dir, server, said });
      return { url: await readUrlLine(child), model, listener };
    });
    stopping = true;
    const failed = testInfo.status !== testInfo.expectedStatus;
    for (const { child, model, dir, server, said } of started.reverse()) {
      await stopProcess(child);
      if (failed && said.length > 0) await testInfo.attach('harbor web stderr', { body: said.join(''), contentType: 'text/plain' });
      // Harbor's own log (#28): where a cut socket or a server's trouble is said.
      const logs = join(dir, 'logs');
      if (failed && existsSync(logs)) for (const file of readdirSync(logs)) await testInfo.attach(`harbor log ${file}`, { path: join(logs, file) });
      await model.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export { expect };

/**
 * Answers every consent dialog that comes up with "Always allow" until `done` holds and no dialog
 * came for `quietMs` (an app that polls a tool asks again until it is allowed); `done` sees the headings
 * allowed so far. Returns them.
 */
export async function allowWhile(page: Page, done: (allowed: readonly string[]) => Promise<boolean>, { timeoutMs = 60_000, quietMs = 1500 } = {}): Promise<string[]> {
  const allowed: string[] = [];
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  for (;;) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms; allowed so far: ${allowed.join(', ')}`);
    // A question outside a chat is a dialog; a chat's own call is asked by a card in its transcript.
    const dialog = page
      .getByRole('dialog')
      .or(page.locator('.consent-card'))
      .filter({ has: page.getByRole('button', { name: 'Always allow' }) })
      .first();
    if ((await dialog.count()) > 0) {
      const title = dialog.getByRole('heading').first();
      const id = await title.getAttribute('data-consent-id');
      allowed.push((await title.textContent()) ?? '');
      // Held by the question's id, not by "the first one": another question can come before it in
      // the page between reading and clicking. A click the page did not take (the card moved under
      // the pointer as an App above it resized) is clicked again while that question still shows.
      const asked = page.locator(`[data-consent-id="${id}"]`);
      const card = page.getByRole('dialog').or(page.locator('.consent-card')).filter({ has: asked });
      await expect(async () => {
        if ((await asked.count()) > 0) await card.getByRole('button', { name: 'Always allow' }).click({ timeout: 5_000 });
        await expect(asked).toHaveCount(0, { timeout: 5_000 });
      }, `the question "${allowed.at(-1)}" (${id}) goes once allowed`).toPass({ timeout: 30_000 });
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs && (await done(allowed))) {
      return allowed;
    }
    await page.waitForTimeout(100);
  }
}

export function toolCard(page: Page, server: string, tool: string): Locator {
  return page.getByRole('article', { name: `Tool call ${server} › ${tool}` });
}

/** The app's own frame inside a card (the proxy's child): where the app's code runs. */
export async function appFrame(region: Locator): Promise<Frame> {
  const proxy = await (await region.locator('iframe').elementHandle())!.contentFrame();
  if (!proxy) throw new Error('the app region has no proxy frame');
  await expect.poll(() => proxy.childFrames().length, { message: 'the app frame inside the proxy' }).toBe(1);
  return proxy.childFrames()[0]!;
}

export function appRegion(scope: Locator | Page, server: string, tool: string): Locator {
  return scope.getByRole('region', { name: `App of ${server} for ${tool}` });
}

/**
 * A chat card's app once it is shown and ready: the card is scrolled into view first (an app off
 * screen is wound down, and shown again when its card comes back).
 */
export async function readyApp(page: Page, server: string, tool: string): Promise<{ region: Locator; app: Frame }> {
  const card = toolCard(page, server, tool);
  await card.scrollIntoViewIfNeeded();
  await expect(card.locator('[data-app-state]')).toHaveAttribute('data-app-state', 'ready', { timeout: 30_000 });
  const region = appRegion(card, server, tool);
  await expect(region).toBeVisible();
  return { region, app: await appFrame(region) };
}

/** Opens the app on the Chat page, once the chat knows its model. */
export async function openChatPage(page: Page, url: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);
  // Generous: the page's first load on a busy machine includes the Host's first catalog answers.
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('scripted', { timeout: 30_000 });
}

/** The apps' audit trail as the Activity page lists it (newest first), one line per entry. */
export async function appActivity(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'App activity' }).getByRole('listitem').allInnerTexts();
}
