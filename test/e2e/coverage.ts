/**
 * Playwright's `test` for every e2e spec and fixture: the same as `@playwright/test`'s, and when
 * `npm run coverage` (scripts/coverage.mjs) sets HARBOR_COVERAGE_BROWSER_DIR, every page a test opens
 * records Chromium's JavaScript coverage, written there as one JSON file per page when the test ends.
 * Without the variable nothing is recorded and nothing is slower.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

const dir = process.env.HARBOR_COVERAGE_BROWSER_DIR;

// The `page` fixture is torn down before its context: at its end every page of the context is still
// open (unless the test closed it) and its coverage can be taken.
export const test = base.extend({
  page: async ({ page }, use, testInfo) => {
    if (!dir) return use(page);
    const started: { page: Page; ready: Promise<void> }[] = [];
    const record = (p: Page) => started.push({ page: p, ready: p.coverage.startJSCoverage({ resetOnNavigation: false }) });
    record(page);
    page.context().on('page', record);
    await use(page);
    for (const [index, entry] of started.entries()) {
      await entry.ready;
      // A page the test closed took its coverage with it (Chromium drops it): nothing to write.
      if (entry.page.isClosed()) continue;
      const scripts = await entry.page.coverage.stopJSCoverage();
      const name = `${testInfo.testId}-${testInfo.retry}-${index}.json`;
      writeFileSync(join(dir, name), JSON.stringify(scripts.filter((s) => /\/assets\/[^/]+\.js$/.test(new URL(s.url).pathname))));
    }
  },
});
