/**
 * .github/workflows/release.yml, parsed (the `yaml` package) and checked for the structure the
 * release depends on. It cannot run here (no Electron binary, no GitHub runner); its syntax was
 * also checked against the GitHub Actions schema with @action-validator/cli. This test keeps the
 * promises that matter from regressing: the three OSes, Node 24, the same system packages as
 * .ci/run, the Electron E2E under Xvfb, unpublished installers as artifacts, and a publish job
 * that only a v* tag reaches and that takes every credential from secrets. And that it proves
 * what it claims: integration tests (keychain ones included) count on every OS, and the fuses are
 * read back from the binaries it builds.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const text = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}
interface Job {
  'runs-on': string;
  if?: string;
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  strategy: { 'fail-fast'?: boolean; matrix: { os: string[]; include?: Record<string, string>[] } };
  steps: Step[];
}
const workflow = parse(text) as { on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, Job> };
const build = workflow.jobs.build!;
const publish = workflow.jobs.publish!;
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
const stepRunning = (job: Job, pattern: RegExp) => job.steps.filter((s) => pattern.test(s.run ?? ''));

describe('release workflow', () => {
  it('runs on pushes, tags, pull requests and by hand, read-only by default', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'workflow_dispatch']);
    expect((workflow.on.push as { tags: string[] }).tags).toEqual(['v*']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(workflow.jobs).sort()).toEqual(['build', 'publish']);
  });

  it('builds on Windows, macOS and Linux with Node 24, every OS to the end', () => {
    for (const job of [build, publish]) {
      expect(job['runs-on']).toBe('${{ matrix.os }}');
      expect([...job.strategy.matrix.os].sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
      expect(job.strategy['fail-fast']).toBe(false);
      const node = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
      expect(node?.with?.['node-version']).toBe(24);
      expect(runs(job)).toMatch(/^npm ci$/m);
    }
  });

  it('Linux installs what .ci/run installs (Chrome instead of the snap-only chromium), plus Xvfb', () => {
    const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const ciPackages = /apt-get install -y --no-install-recommends ([^\n]+)/.exec(ciRun)![1]!.trim().split(/\s+/);
    const apt = build.steps.find((s) => /apt-get install/.test(s.run ?? ''))!;
    expect(apt.if).toBe("runner.os == 'Linux'");
    const installed = new Set(/install -y --no-install-recommends([\s\S]*?)(?:\n\s*#|\n\s*sudo sysctl|$)/.exec(apt.run!)![1]!.replaceAll('\\', ' ').trim().split(/\s+/));
    for (const pkg of ciPackages.filter((p) => p !== 'chromium')) expect(installed, `${pkg} from .ci/run`).toContain(pkg);
    expect(installed).toContain('xvfb');
    expect(build.strategy.matrix.include?.find((i) => i.os === 'ubuntu-latest')?.chrome).toBe('/usr/bin/google-chrome');
    expect(build.env?.CHROMIUM_PATH).toBe('${{ matrix.chrome }}');
  });

  it('Linux runs npm test inside a D-Bus session with an unlocked gnome-keyring, like .ci/run', () => {
    const [npmTest] = stepRunning(build, /npm test/);
    expect(npmTest?.if).toBe("runner.os == 'Linux'");
    expect(npmTest?.run).toMatch(/dbus-run-session -- bash -c 'echo -n \S+ \| gnome-keyring-daemon --unlock --components=secrets >\/dev\/null && npm test'/);
  });

  it('macOS and Windows run lint, both type-checks, the build, unit tests and browser E2E', () => {
    for (const pattern of [/eslint --max-warnings 0 \./, /tsc -p tsconfig\.node\.json/, /tsc -p tsconfig\.web\.json/, /electron-vite build/, /vitest run test\/unit/, /playwright test --project=debian-chromium/]) {
      const step = stepRunning(build, pattern)[0];
      expect(step, String(pattern)).toBeDefined();
      expect(step?.if).toBe("runner.os != 'Linux'");
      expect(step?.['continue-on-error']).toBeUndefined();
    }
  });

  it('macOS and Windows run every integration test, keychain tests included, and a failure fails the build', () => {
    const integration = stepRunning(build, /vitest run test\/integration/);
    expect(integration.map((s) => [s.if, s.run])).toEqual([["runner.os != 'Linux'", 'npx vitest run test/integration']]);
    // Nothing in the build is informational (on Windows that was the taskkill stop path).
    for (const step of build.steps) expect(step['continue-on-error'], step.name ?? step.run).toBeUndefined();
  });

  it('macOS: the keychain tests write to a temporary keychain, unlocked and made the default first', () => {
    const [keychain] = stepRunning(build, /security create-keychain/);
    expect(keychain?.if).toBe("runner.os == 'macOS'");
    const commands = keychain!.run!.split('\n').map((l) => l.trim()).filter(Boolean);
    const path = /^KEYCHAIN="([^"]+)"$/.exec(commands[0]!)?.[1];
    expect(path).toMatch(/^\$RUNNER_TEMP\/.+\.keychain-db$/);
    const order = ['security create-keychain -p', 'security unlock-keychain -p', 'security list-keychains -d user -s "$KEYCHAIN"', 'security default-keychain -d user -s "$KEYCHAIN"'];
    const at = order.map((prefix) => commands.findIndex((c) => c.startsWith(prefix)));
    expect(at.every((i) => i > 0), `${keychain!.run}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(build.steps.indexOf(keychain!)).toBeLessThan(build.steps.indexOf(stepRunning(build, /vitest run test\/integration/)[0]!));
  });

  it('reads the Electron fuses back from the binaries it built, on every OS, in both jobs', () => {
    for (const job of [build, publish]) {
      const builder = stepRunning(job, /electron-builder/)[0]!;
      const [check] = stepRunning(job, /scripts\/check-fuses\.mjs/);
      expect(check?.run).toBe('node scripts/check-fuses.mjs dist');
      expect(check?.if).toBeUndefined();
      expect(job.steps.indexOf(check!)).toBeGreaterThan(job.steps.indexOf(builder));
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@electron/fuses']).toMatch(/^\d+\.\d+\.\d+$/); // pinned
  });

  it('downloads Electron, then runs the Electron E2E specs (under Xvfb on Linux)', () => {
    const download = stepRunning(build, /node node_modules\/electron\/install\.js/)[0]!;
    const e2e = stepRunning(build, /playwright test --project=electron/);
    expect(e2e.map((s) => [s.if, s.run])).toEqual([
      ["runner.os == 'Linux'", 'xvfb-run -a -s "-screen 0 1280x800x24" npx playwright test --project=electron'],
      ["runner.os != 'Linux'", 'npx playwright test --project=electron'],
    ]);
    // After npm test (whose layout check must not see a real binary), before the installers.
    expect(build.steps.indexOf(download)).toBeGreaterThan(build.steps.indexOf(stepRunning(build, /npm test/)[0]!));
    expect(build.steps.indexOf(download)).toBeLessThan(build.steps.indexOf(e2e[0]!));
  });

  it('builds unpublished installers after bundling the example server, and uploads them', () => {
    const bundle = stepRunning(build, /node scripts\/bundle-example-server\.mjs/)[0]!;
    const builder = stepRunning(build, /electron-builder/)[0]!;
    expect(builder.run).toMatch(/--publish never/);
    expect(build.steps.indexOf(bundle)).toBeLessThan(build.steps.indexOf(builder));
    const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@') && s.if === undefined)!;
    expect(build.steps.indexOf(upload)).toBeGreaterThan(build.steps.indexOf(builder));
    const paths = String(upload.with?.path).split('\n').filter(Boolean);
    for (const ext of ['exe', 'dmg', 'zip', 'AppImage', 'deb']) expect(paths).toContain(`dist/*.${ext}`);
    expect(upload.with?.['if-no-files-found']).toBe('error');
  });

  it('the build job uses no secrets and signs nothing', () => {
    expect(JSON.stringify(build)).not.toMatch(/secrets\./);
    expect(build.env?.CSC_IDENTITY_AUTO_DISCOVERY).toBe('false');
  });

  it('publishing is a separate job: v* tags only, after every build, in the release environment, credentials from secrets', () => {
    expect(publish.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(publish.needs).toBe('build');
    expect(publish.environment).toBe('release');
    expect(publish.permissions).toEqual({ contents: 'write' });
    const step = stepRunning(publish, /electron-builder/)[0]!;
    expect(step.run).toMatch(/--publish always/);
    expect(Object.keys(step.env ?? {}).sort()).toEqual(['APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_ID', 'APPLE_TEAM_ID', 'CSC_KEY_PASSWORD', 'CSC_LINK', 'GH_TOKEN']);
    for (const [name, value] of Object.entries(step.env ?? {})) expect(value, name).toMatch(/^\$\{\{ .*secrets\.[A-Z_]+.* \}\}$/);
  });

  it('holds no credential in the file itself', () => {
    expect(text).not.toMatch(/-----BEGIN|ghp_[A-Za-z0-9]{20}|github_pat_|AKIA[0-9A-Z]{16}|xox[bp]-/);
    for (const match of text.matchAll(/^\s*(\w*(?:PASSWORD|TOKEN|SECRET|CSC_LINK|APPLE_ID)\w*):\s*(.+)$/gm)) {
      expect(match[2], match[1]).toMatch(/secrets\./);
    }
  });
});
