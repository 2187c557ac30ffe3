/**
 * The real Electron shell, driven by Playwright's `_electron`. It needs the Electron binary, which
 * `node node_modules/electron/install.js` downloads on a normal machine (the release workflow does
 * that on Windows, macOS and Linux runners); where the download is skipped or blocked (our CI:
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1, no network) the specs are skipped, with the reason, instead of
 * failing. What they cover there is covered in pieces under Node: test/unit/window.test.ts,
 * ipc.test.ts, preload.test.ts, electron-main.test.ts, shell-*.test.ts, and the renderer through
 * browser mode in test/e2e/.
 *
 * Each test launches Harbor with its own user-data dir, so nothing of the person's (or of another
 * test) is read or written.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { AppInfo, HarborApi, Result, ServerSummary } from '../../../preload/contract';
import { startScriptedModel, type ScriptedModel } from '../../fixtures/model/scripted-model';
import { descendantsOf, isAlive, listProcesses } from './processes';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const FEATURE_SERVER = join(repoRoot, 'test', 'fixtures', 'servers', 'modern', 'feature-server.mjs');

/**
 * Where `require('electron')` would point, found without requiring it: requiring the package
 * with no binary starts a download (which hangs or fails offline).
 */
function findElectronBinary(): string | undefined {
  const pkgDir = join(repoRoot, 'node_modules', 'electron');
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, relative || 'electron') : relative ? join(pkgDir, 'dist', relative) : undefined;
  return binary && existsSync(binary) ? binary : undefined;
}

const electronBinary = findElectronBinary();
const SKIP_REASON =
  'No Electron binary: node_modules/electron/path.txt or its dist/ folder is missing (installed with ' +
  'ELECTRON_SKIP_BINARY_DOWNLOAD=1, or the download is blocked). On a machine that can download it, run ' +
  '`node node_modules/electron/install.js`, then `npm run build` and `npx playwright test --project=electron` ' +
  '(the release workflow does this on Windows, macOS and Linux).';

// The list reporter shows a skip without its reason: say it once in the run's output too (the
// runner process loads this file once to list tests; workers have TEST_WORKER_INDEX set).
if (electronBinary === undefined && process.env.TEST_WORKER_INDEX === undefined) {
  process.stderr.write(`[electron] skipping the Electron specs. ${SKIP_REASON}\n`);
}

interface Harbor {
  readonly app: ElectronApplication;
  readonly page: Page;
  readonly userData: string;
}

/** Launches the built app on a fresh user-data dir, optionally with a registry file written first. */
async function launchHarbor(registry?: Record<string, unknown>): Promise<Harbor> {
  expect(existsSync(join(repoRoot, 'out', 'main', 'index.js')), 'the app is not built: run `npm run build` first').toBe(true);
  const userData = realpathSync(mkdtempSync(join(tmpdir(), 'harbor-electron-e2e-')));
  if (registry) writeFileSync(join(userData, 'harbor.json'), JSON.stringify(registry, null, 2));
  const env = { ...process.env } as Record<string, string>;
  delete env.ELECTRON_RENDERER_URL; // the built page, never a dev server
  delete env.ELECTRON_RUN_AS_NODE; // a leaked one would start Electron as plain Node
  const app = await electron.launch({
    executablePath: electronBinary!,
    cwd: repoRoot,
    // Chromium refuses to start as root with its sandbox on (CI containers run as root).
    args: [repoRoot, `--user-data-dir=${userData}`, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    env,
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page, userData };
}

async function closeHarbor(harbor: Harbor | undefined): Promise<void> {
  if (!harbor) return;
  // close() quits through before-quit: the Host is disposed (servers stopped) before the exit.
  await harbor.app.close().catch(() => undefined);
  rmSync(harbor.userData, { recursive: true, force: true });
}

const api = (page: Page) => page.evaluate.bind(page);

async function serverState(page: Page, name: string): Promise<string | undefined> {
  const result = (await api(page)(() => (window as unknown as { harbor: HarborApi }).harbor.servers.list({}))) as Result<ServerSummary[]>;
  return result.ok ? result.value.find((s) => s.name === name)?.state.kind : undefined;
}

test.describe('Electron shell', () => {
  test.skip(electronBinary === undefined, SKIP_REASON);

  let harbor: Harbor | undefined;
  test.afterEach(async () => {
    await closeHarbor(harbor);
    harbor = undefined;
  });

  test('opens the Harbor window from its own isolated profile', async () => {
    harbor = await launchHarbor();
    const { app, page, userData } = harbor;
    await expect(page).toHaveTitle(/Harbor/);
    await expect(page.getByText('Harbor').first()).toBeVisible();
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(userData);
    expect(page.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html/);
  });

  test('main reports the secure webPreferences, and the page behaves accordingly: no Node, no webview, no popups, only window.harbor', async () => {
    harbor = await launchHarbor();
    const { app } = harbor;
    const fromMain = await app.evaluate(async ({ app: electronApp, BrowserWindow }) => {
      const [window] = BrowserWindow.getAllWindows();
      if (!window) throw new Error('no window');
      const contents = window.webContents as unknown as { getLastWebPreferences?: () => Record<string, unknown> | null };
      const js = (code: string): Promise<unknown> => window.webContents.executeJavaScript(code);
      return {
        // Not in electron.d.ts, but present at run time in the Electron versions we ship.
        preferences: contents.getLastWebPreferences?.() ?? null,
        // Whether Chromium sandboxed the renderer process at OS level (reported on macOS and Windows).
        rendererSandboxed: electronApp
          .getAppMetrics()
          .filter((m) => m.type === 'Tab')
          .map((m) => m.sandboxed),
        platform: process.platform,
        require: await js('typeof require'),
        process: await js('typeof process'),
        module: await js('typeof module'),
        buffer: await js('typeof Buffer'),
        ipcRenderer: await js('typeof window.ipcRenderer'),
        harbor: await js('typeof window.harbor'),
        harborInvoke: await js('typeof window.harbor.invoke'),
        webview: await js("document.createElement('webview').constructor.name"),
        popupBlocked: await js("window.open('about:blank') === null"),
        windows: BrowserWindow.getAllWindows().length,
      };
    });
    if (fromMain.preferences) {
      expect(fromMain.preferences).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
      });
    }
    if (fromMain.platform !== 'linux') expect(fromMain.rendererSandboxed.every((s) => s === true)).toBe(true);
    const { preferences: _p, rendererSandboxed: _s, platform: _platform, ...probe } = fromMain;
    expect(probe).toEqual({
      require: 'undefined',
      process: 'undefined',
      module: 'undefined',
      buffer: 'undefined',
      ipcRenderer: 'undefined',
      harbor: 'object',
      harborInvoke: 'undefined',
      webview: 'HTMLUnknownElement',
      popupBlocked: true,
      windows: 1,
    });
  });

  test('window.harbor reaches the Host through the IPC binding; updates are off in an unpackaged app', async () => {
    harbor = await launchHarbor();
    const { page, userData } = harbor;
    const result = (await page.evaluate(() => (window as unknown as { harbor: HarborApi }).harbor.app.info({}))) as Result<AppInfo>;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ name: 'Harbor', mode: 'electron', dataDir: userData });
    expect(result.value.versions.electron).toBeTruthy();
    const updates = await page.evaluate(() => (window as unknown as { harbor: HarborApi }).harbor.app.updateStatus({}));
    expect(updates).toMatchObject({ ok: true, value: { state: 'unsupported' } });
  });

  test('the window cannot be navigated away from the app', async () => {
    harbor = await launchHarbor();
    const { page } = harbor;
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    // will-navigate is refused in main; give a navigation time to (not) happen.
    await page.waitForTimeout(1_000);
    expect(page.url()).toBe(before);
  });

  test.describe('a stdio server added through the UI, used by the scripted model', () => {
    let model: ScriptedModel | undefined;
    test.afterEach(async () => {
      await model?.close();
      model = undefined;
    });

    test('add it, approve its launch, chat through the tool-consent dialog, quit: no child process survives', async () => {
      test.setTimeout(120_000);
      model = await startScriptedModel({
        script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'hello from electron' } }] }, { text: 'The server echoed it back.' }],
      });
      harbor = await launchHarbor({ mcpServers: {}, model: model.modelConfig() });
      const { app, page } = harbor;

      // Servers → Add server: a local program run on Harbor's own Node (Electron as Node).
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }).click();
      await page.getByRole('toolbar', { name: 'Server actions' }).getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Name').fill('feature');
      await form.getByLabel('Command').fill('${harbor:node}');
      await form.getByRole('button', { name: 'Add argument' }).click();
      await form.getByRole('textbox', { name: 'Argument 1', exact: true }).fill(FEATURE_SERVER);
      await form.getByRole('button', { name: 'Add server' }).click();
      await expect(page.getByRole('heading', { name: 'feature', exact: true })).toBeVisible();

      // Its first launch asks (the server is not trusted): the dialog shows the exact command line.
      const dialog = page.getByRole('dialog');
      const start = page.getByRole('button', { name: 'Start feature' });
      await expect(dialog.or(start).first()).toBeVisible({ timeout: 15_000 });
      if (!(await dialog.isVisible())) await start.click();
      await expect(dialog).toContainText(FEATURE_SERVER);
      await dialog.getByRole('button', { name: 'Start this time' }).click();
      await expect(page.getByRole('article', { name: 'feature' }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
      expect(await serverState(page, 'feature')).toBe('ready');

      // Chat: the model calls feature__echo; the tool-consent dialog shows the exact arguments.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
      const composer = page.getByRole('form', { name: 'Write a message' });
      await composer.getByRole('textbox').fill('Please echo something.');
      await composer.getByRole('button', { name: 'Send' }).click();
      await expect(dialog).toContainText('hello from electron', { timeout: 30_000 });
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect(page.getByText('The server echoed it back.')).toBeVisible({ timeout: 30_000 });
      expect(model.requests).toHaveLength(2);
      expect(model.requests[1]!.toolResults[0]?.content).toContain('hello from electron');

      // Quit: every process under the app — the MCP server included — is gone afterwards.
      const root = app.process().pid!;
      const children = descendantsOf(root);
      expect(children.some((p) => p.command.includes('feature-server.mjs'))).toBe(true);
      await app.close();
      // Alive = the same pid still running the same command (a reused pid is someone else).
      const survivors = () => {
        const now = new Map(listProcesses().map((p) => [p.pid, p.command]));
        return children.filter((p) => now.get(p.pid) === p.command).map((p) => `${p.pid} ${p.command}`);
      };
      await expect.poll(survivors, { timeout: 15_000 }).toEqual([]);
      expect(isAlive(root)).toBe(false);
    });
  });
});
