import { describe, expect, it } from 'vitest';
import { playwrightFailures, vitestFailures } from '../../scripts/test-failures.mjs';

// The reports below have the shapes vitest's and playwright's JSON reporters write (the fields
// read are the ones in test/output/vitest.json and playwright.json of a real run).
describe('the failed tests npm test names at the end of its summary', () => {
  it('vitest: each failed case as file > full name: the first plain line of its error', () => {
    const report = {
      testResults: [
        {
          name: '/repo/test/integration/a.test.ts',
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'suite passes', status: 'passed', failureMessages: [] },
            { fullName: 'suite breaks', status: 'failed', failureMessages: ['\u001b[31mAssertionError\u001b[39m: expected 1 to be 2\n    at a.test.ts:3:1'] },
          ],
        },
        { name: '/repo/test/unit/b.test.ts', status: 'passed', message: '', assertionResults: [{ fullName: 'ok', status: 'passed', failureMessages: [] }] },
        // A file that fails before any case runs (an import error, a failing beforeAll).
        { name: '/repo/test/unit/c.test.ts', status: 'failed', message: '\nError: Cannot find module "x"\n  stack', assertionResults: [] },
      ],
    };
    expect(vitestFailures(report, '/repo')).toEqual([
      'test/integration/a.test.ts > suite breaks: AssertionError: expected 1 to be 2',
      'test/unit/c.test.ts: Error: Cannot find module "x"',
    ]);
  });

  it('playwright: unexpected and flaky tests with their describe path; passed and skipped ones are left out', () => {
    const suites = [
      {
        title: 'chat.spec.ts',
        specs: [{ title: 'sends', tests: [{ status: 'expected', results: [{ status: 'passed' }] }] }],
        suites: [
          {
            title: 'Stop',
            specs: [
              { title: 'cancels a turn', tests: [{ status: 'unexpected', results: [{ status: 'failed', error: { message: 'Error: expect(locator).toBeVisible() failed\n\nLocator: x\nExpected: visible\nTimeout: 5000ms\n  Call log:\n  - waiting', location: { file: '/repo/test/e2e/chat.spec.ts', line: 42 } } }] }] },
              { title: 'waits', tests: [{ status: 'flaky', results: [{ status: 'failed', error: { message: 'Timeout 5000ms exceeded.' } }, { status: 'passed' }] }] },
              { title: 'electron only', tests: [{ status: 'skipped', results: [] }] },
            ],
          },
        ],
      },
    ];
    expect(playwrightFailures(suites)).toEqual([
      'chat.spec.ts > Stop > cancels a turn (unexpected): Error: expect(locator).toBeVisible() failed · Locator: x · Expected: visible [at chat.spec.ts:42]',
      'chat.spec.ts > Stop > waits (flaky): Timeout 5000ms exceeded.',
    ]);
  });

  it('a long error line is cut, so one failure stays one line', () => {
    const report = { testResults: [{ name: '/r/x.test.ts', status: 'failed', assertionResults: [{ fullName: 'x', status: 'failed', failureMessages: ['E'.repeat(1000)] }] }] };
    const [line] = vitestFailures(report, '/r');
    expect(line).toBe(`x.test.ts > x: ${'E'.repeat(300)}`);
  });
});
