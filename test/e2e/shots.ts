/**
 * Screens before and after a change, for the person reviewing it: when HARBOR_SHOTS_DIR is set,
 * `shot(page, 'NAME')` saves NAME-${HARBOR_SHOTS_PHASE ?? 'after'}.png there (outside the repository).
 * Without it, nothing is written.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.HARBOR_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}-${process.env.HARBOR_SHOTS_PHASE ?? 'after'}.png`) });
}
