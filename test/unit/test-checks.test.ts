/**
 * The suite's own checks can fail: a child vitest runs test/fixtures/vitest-checks/broken.fixture.ts
 * with the leak check of every test file (test/setup/leak-check.ts) and the contract transport,
 * and exactly the tests that break a rule fail, each saying what went wrong and where.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setDisposableTracker, toDisposable } from '../../main/host/lifecycle';
import { describeLeaks, LeakTracker } from '../helpers/leak-tracker';

const REPO = resolve(import.meta.dirname, '../..');

interface JsonReport {
  testResults: Array<{
    status: string;
    message: string;
    assertionResults: Array<{ title: string; status: string; failureMessages: string[] }>;
  }>;
}

function runFixture(): JsonReport {
  const vitest = join(REPO, 'node_modules/vitest/vitest.mjs');
  const config = join(REPO, 'test/fixtures/vitest-checks/vitest.config.ts');
  const out = mkdtempSync(join(tmpdir(), 'harbor-test-checks-'));
  try {
    const report = join(out, 'report.json');
    const run = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--reporter=json', `--outputFile=${report}`], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(1);
    return JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe('the leak check and the contract check', () => {
  it('fail exactly the tests that break them, saying what leaked or broke and where', () => {
    const report = runFixture();
    const [file] = report.testResults;
    const byTitle = new Map(file!.assertionResults.map((t) => [t.title, t]));
    expect([...byTitle].filter(([, t]) => t.status === 'failed').map(([title]) => title).sort()).toEqual([
      'leaks a store it created',
      'scripts an answer the contract does not allow, and never looks',
    ]);
    const leak = byTitle.get('leaks a store it created')!.failureMessages.join('\n');
    expect(leak).toContain('1 disposable created in this test was never disposed');
    expect(leak).toMatch(/- DisposableStore, created\n\s+at .*\n\s+at new LeakyService \(.*broken\.fixture\.ts:\d+/);
    const contract = byTitle.get('scripts an answer the contract does not allow, and never looks')!.failureMessages.join('\n');
    expect(contract).toContain('answer of servers.remove does not match its response schema: removed:');
    // What beforeAll created and afterAll forgot fails the file.
    expect(file!.status).toBe('failed');
    expect(file!.message).toMatch(/1 disposable created outside the tests of this file .* never disposed:\s+- toDisposable, created\s+at .*broken\.fixture\.ts:\d+/s);
  });
});

describe('LeakTracker', () => {
  it('counts an object against the test running when it was created, until it is disposed', () => {
    const tracker = new LeakTracker();
    const previous = setDisposableTracker(tracker);
    try {
      tracker.current = 'test-a';
      const kept = toDisposable(() => undefined);
      const disposed = toDisposable(() => undefined);
      void disposed.dispose();
      tracker.current = undefined;
      const fileLevel = toDisposable(() => undefined);
      expect(tracker.size).toBe(2);
      const leaks = tracker.takeLeaks('test-a');
      expect(leaks.map((l) => [l.name, l.test])).toEqual([['toDisposable', 'test-a']]);
      expect(leaks[0]!.stack).toContain('test-checks.test.ts');
      expect(describeLeaks(leaks, 'in this test')).toMatch(/^1 disposable created in this test was never disposed:\n {2}- toDisposable, created\n {6}at /);
      expect(tracker.takeLeaks(undefined)).toHaveLength(1);
      void kept.dispose();
      void fileLevel.dispose();
      expect(tracker.size).toBe(0);
    } finally {
      setDisposableTracker(previous);
    }
  });
});
