/**
 * The real Electron shell, driven by Playwright's `_electron`. It needs the Electron binary, which
 * `npm install` downloads on a normal machine; where the download is skipped or blocked (our CI:
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1) the spec is skipped, with the reason, instead of failing. What
 * it covers there is covered in pieces under Node: test/unit/window.test.ts, ipc.test.ts,
 * preload.test.ts, and the renderer through browser mode in test/e2e/.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { AppInfo, HarborApi, Result } from '../../../preload/contract';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

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
  '`node node_modules/electron/install.js` (or a plain `npm install`), then `npm run build` and this spec.';

// The list reporter shows a skip without its reason: say it once in the run's output too (the
// runner process loads this file once to list tests; workers have TEST_WORKER_INDEX set).
if (electronBinary === undefined && process.env.TEST_WORKER_INDEX === undefined) {
  process.stderr.write(`[electron] skipping the Electron specs. ${SKIP_REASON}\n`);
}

test.describe('Electron shell', () => {
  test.skip(electronBinary === undefined, SKIP_REASON);

  let app: ElectronApplication;
  let page: Page;
  let userData: string;

  test.beforeEach(async () => {
    expect(existsSync(join(repoRoot, 'out', 'main', 'index.js')), 'the app is not built: run `npm run build` first').toBe(true);
    userData = realpathSync(mkdtempSync(join(tmpdir(), 'harbor-electron-e2e-')));
    const env = { ...process.env } as Record<string, string>;
    delete env.ELECTRON_RENDERER_URL; // the built page, never a dev server
    app = await electron.launch({
      executablePath: electronBinary!,
      cwd: repoRoot,
      // Chromium refuses to start as root with its sandbox on (CI containers run as root).
      args: [repoRoot, `--user-data-dir=${userData}`, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      env,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterEach(async () => {
    // close() goes through before-quit: the Host is disposed before the process exits.
    await app?.close();
    rmSync(userData, { recursive: true, force: true });
  });

  test('opens the Harbor window from its own isolated profile', async () => {
    await expect(page).toHaveTitle(/Harbor/);
    await expect(page.getByText('Harbor').first()).toBeVisible();
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(userData);
    expect(page.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html/);
  });

  test('the page runs sandboxed and isolated: no Node, no webview, no popups, only window.harbor', async () => {
    const probe = await app.evaluate(async ({ BrowserWindow }) => {
      const [window] = BrowserWindow.getAllWindows();
      if (!window) throw new Error('no window');
      const js = (code: string): Promise<unknown> => window.webContents.executeJavaScript(code);
      return {
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

  test('window.harbor reaches the Host through the IPC binding', async () => {
    const result = await page.evaluate(() =>
      (window as unknown as { harbor: HarborApi }).harbor.app.info({}),
    ) as Result<AppInfo>;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ name: 'Harbor', mode: 'electron', dataDir: userData });
    expect(result.value.versions.electron).toBeTruthy();
  });

  test('the window cannot be navigated away from the app', async () => {
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    // will-navigate is refused in main; give a navigation time to (not) happen.
    await page.waitForTimeout(1_000);
    expect(page.url()).toBe(before);
  });
});
