import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { headlessBrowser, type BrowserOpener } from '../../main/host/auth/opener';

/** A headless browser (follows the sign-in page to Harbor's callback) that also records what it was asked to open. */
export function recordingBrowser(): BrowserOpener & { opened: URL[] } {
  const follow = headlessBrowser();
  const opened: URL[] = [];
  return Object.assign(
    async (url: URL) => {
      opened.push(url);
      await follow(url);
    },
    { opened },
  );
}

/** Every file under `dir`, for "no token or secret in any file Harbor wrote" checks. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
