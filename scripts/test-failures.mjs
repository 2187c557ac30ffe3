// The failed tests of a run, named from the vitest and playwright JSON reports: `npm test` prints
// them at the end of its summary, so the last lines of a CI log say which tests failed and why.
import { relative } from 'node:path';

function plainLines(text) {
  // Reporters colour their messages; the summary is plain text.
  // eslint-disable-next-line no-control-regex
  return String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

function firstLine(text) {
  return (plainLines(text)[0] ?? '').slice(0, 300);
}

/**
 * Playwright's first line says only which kind of expect failed; the CI log's tail is all one sees
 * of a run elsewhere, so the line also carries what was looked for and found, and where.
 */
function playwrightWhy(error) {
  const lines = plainLines(error?.message);
  const facts = lines.filter((l) => /^(Locator|Expected|Received)( [a-z]+)?:/.test(l)).map((l) => l.replace(/\s+/g, ' ').slice(0, 160));
  const at = error?.location ? ` [at ${error.location.file.split(/[\\/]/).pop()}:${error.location.line}]` : '';
  return [(lines[0] ?? '').slice(0, 300), ...facts].join(' · ') + at;
}

export function vitestFailures(report, root) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const name = relative(root, file.name ?? '');
    const failedCases = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedCases) out.push(`${name} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that fails to load (or fails in a hook) has no failed case to name.
    if (file.status === 'failed' && failedCases.length === 0) out.push(`${name}: ${firstLine(file.message)}`);
  }
  return out;
}

export function playwrightFailures(suites, titles = []) {
  const out = [];
  for (const suite of suites) {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const error = test.results?.find((r) => r.error)?.error;
        out.push(`${[...path, spec.title].join(' > ')} (${test.status}): ${playwrightWhy(error)}`);
      }
    }
    out.push(...playwrightFailures(suite.suites ?? [], path));
  }
  return out;
}
