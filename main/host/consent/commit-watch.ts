import { watch, type FSWatcher } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

/**
 * Tells the consent store's in-memory answers when another connection (the CLI revoking while the
 * app runs, a second Harbor process) may have committed, so the answers are dropped.
 *
 * Asking SQLite on every tool call (`PRAGMA data_version`) opens a read transaction: file-lock
 * system calls that cost more than the rest of the consent check together. So where the OS says
 * when a file is written (inotify on Linux, kqueue on macOS), the WAL file is watched instead: every
 * commit of every connection appends to it. A commit elsewhere is then seen as soon as its
 * notification is delivered, on the next turn of the event loop; a call that starts before that
 * started, as far as anyone can tell, before the commit. Where the watch is not available or
 * fails (Windows, whose change notifications can lag behind writes through an open handle; a
 * missing WAL file; an exhausted watch limit; the file replaced), every check asks SQLite.
 */
export class ForeignCommits implements Disposable {
  private watcher: FSWatcher | undefined;
  /** Whether a notification arrived since the last check (true at first: nothing is known yet). */
  private notified = true;
  private dataVersion: StatementSync | undefined;
  private seenVersion: number | undefined;

  constructor(
    private readonly db: DatabaseSync,
    path: string,
    options: { watch?: boolean } = {},
  ) {
    trackDisposable(this);
    // An in-memory database has no other connection.
    if (path === ':memory:') return;
    if (options.watch !== false && process.platform !== 'win32') this.startWatching(`${path}-wal`);
  }

  /** True when another connection may have committed since the last call: drop what is cached. */
  check(): boolean {
    if (this.watcher) {
      const notified = this.notified;
      this.notified = false;
      return notified;
    }
    this.dataVersion ??= this.db.prepare('PRAGMA data_version');
    const { data_version: version } = this.dataVersion.get() as { data_version: number };
    const changed = version !== this.seenVersion;
    this.seenVersion = version;
    return changed;
  }

  /** For tests and diagnostics: whether checks are answered by the file watch. */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  private startWatching(walPath: string): void {
    try {
      // Not persistent: a watch must never keep the CLI's process alive.
      const watcher = watch(walPath, { persistent: false }, (event) => {
        this.notified = true;
        // Renamed or deleted: the watch no longer follows the database; ask SQLite from now on.
        if (event === 'rename') this.stopWatching();
      });
      watcher.on('error', () => this.stopWatching());
      this.watcher = watcher;
    } catch {
      // ENOENT, ENOSPC (inotify limit), EPERM: fall back to asking SQLite on every check.
      this.watcher = undefined;
    }
  }

  private stopWatching(): void {
    this.notified = true;
    this.seenVersion = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  dispose(): void {
    markAsDisposed(this);
    this.stopWatching();
  }
}
