// Types for test-failures.mjs (plain Node ESM; test-all.mjs and its unit test import it).

/** The failed tests of a vitest JSON report, "file > full name: first line of the error". */
export function vitestFailures(report: unknown, root: string): string[];

/** The failed and flaky tests of a playwright JSON report's suites, "file > title (status): error". */
export function playwrightFailures(suites: readonly unknown[], titles?: readonly string[]): string[];
