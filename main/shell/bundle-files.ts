/**
 * Opening .mcpb files with Harbor (the installers register the file type: electron-builder.yml
 * fileAssociations): the file arrives as a command-line argument on Windows and Linux — at the
 * first launch, or in a second launch's argv ('second-instance') — and through 'open-file' on
 * macOS, possibly before the app is ready. Each goes to the Host, which reads and checks the
 * bundle and shows its review in the window (the bundles.opened event); nothing is installed
 * until the person says so there.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { App } from 'electron';

export const BUNDLE_EXTENSION = '.mcpb';

/** The .mcpb files named in a command line (flags and anything that is not an existing file skipped). */
export function bundleFilesIn(argv: readonly string[], cwd = process.cwd()): string[] {
  return argv
    .filter((arg) => !arg.startsWith('-') && arg.toLowerCase().endsWith(BUNDLE_EXTENSION))
    .map((arg) => (isAbsolute(arg) ? arg : resolve(cwd, arg)))
    .filter((path) => {
      try {
        return existsSync(path) && statSync(path).isFile();
      } catch {
        return false;
      }
    });
}

/** Holds bundle files until the window can show them, then hands each to the handler. */
export class BundleFileInbox {
  private handler: ((path: string) => void) | undefined;
  private readonly waiting: string[] = [];

  /** More than a few files before the window exists is not a person double-clicking. */
  private static readonly MAX_WAITING = 4;

  push(path: string): void {
    if (this.handler) this.handler(path);
    else if (this.waiting.length < BundleFileInbox.MAX_WAITING) this.waiting.push(path);
  }

  fromArgv(argv: readonly string[], cwd?: string): void {
    for (const path of bundleFilesIn(argv, cwd)) this.push(path);
  }

  /** Binds macOS 'open-file'; call before 'ready' (a file that launched the app arrives early). */
  bindOpenFile(app: Pick<App, 'on'>): void {
    app.on('open-file', (event, path) => {
      if (!path.toLowerCase().endsWith(BUNDLE_EXTENSION)) return;
      event.preventDefault();
      this.push(path);
    });
  }

  setHandler(handler: (path: string) => void): void {
    this.handler = handler;
    for (const path of this.waiting.splice(0)) handler(path);
  }
}
