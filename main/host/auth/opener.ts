import { spawn } from 'node:child_process';
import type { FetchLike } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { browserUrlProblem } from './url-policy';

/**
 * Shows a sign-in page to the person. Electron passes `shell.openExternal`; the CLI prints the
 * URL (and runs the platform opener with --open); tests and the conformance adapter follow it
 * headlessly. Every URL was checked by `assertBrowserUrl` before it gets here.
 */
export type BrowserOpener = (url: URL) => Promise<void>;

/**
 * The platform's own "open this URL" program, run directly — never through a shell (`cmd.exe`,
 * `sh`), which would interpret characters of a server-supplied URL. Windows: the URL protocol
 * handler of url.dll, macOS: open, elsewhere: xdg-open.
 */
export function platformOpener(platform: NodeJS.Platform = process.platform): BrowserOpener {
  return (url) =>
    new Promise<void>((resolve, reject) => {
      const href = url.href;
      const [command, args] =
        platform === 'win32'
          ? ['rundll32.exe', ['url.dll,FileProtocolHandler', href]]
          : platform === 'darwin'
            ? ['open', [href]]
            : ['xdg-open', [href]];
      const child = spawn(command, args, { shell: false, detached: true, stdio: 'ignore', windowsHide: true });
      child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
}

export interface HeadlessBrowserOptions {
  readonly fetch?: FetchLike;
  /** Redirects followed before giving up (an authorization server may bounce through a few pages). */
  readonly maxHops?: number;
}

/**
 * A browser with nobody in front of it, for tests and the conformance suite: it GETs the
 * authorization URL and follows redirects by hand (each hop through the same URL policy as a real
 * opener), so an authorization server that approves without a login page ends at Harbor's
 * loopback callback — delivered over a real socket, exactly as a browser would.
 */
export function headlessBrowser(options: HeadlessBrowserOptions = {}): BrowserOpener {
  const doFetch = options.fetch ?? fetch;
  const maxHops = options.maxHops ?? 10;
  return async (start) => {
    let url = start;
    for (let hop = 0; hop <= maxHops; hop++) {
      const response = await doFetch(url, { redirect: 'manual' });
      await response.body?.cancel().catch(() => undefined); // only the status and Location are read: a body that cannot be cancelled is already closed
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        if (response.status >= 400) throw new HarborError('AUTH_FAILED', `The sign-in page answered HTTP ${response.status}.`);
        return;
      }
      const next = new URL(location, url);
      const problem = browserUrlProblem(next);
      if (problem) throw new HarborError('AUTH_FAILED', `The sign-in page redirected to a URL Harbor refuses to open: ${problem}.`);
      url = next;
    }
    throw new HarborError('AUTH_FAILED', `The sign-in page redirected more than ${maxHops} times.`);
  };
}
