import { watch, realpathSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { RegistryProblem } from '../../../preload/contract';
import type { HostEvents } from '../events';
import type { Disposable } from '../lifecycle';
import type { LogSink } from '../log/harbor-log';
import type { AppliedChanges } from '../servers/manager';

/** How long the file must be quiet before it is read: an editor's save is often several writes. */
const SETTLE_MS = 150;

export interface RegistryWatchDeps {
  readonly path: string;
  /** Reads the file again and applies it (RegistryEditing.followFile). */
  readonly follow: () => Promise<{ problems: RegistryProblem[]; changes?: AppliedChanges } | undefined>;
  readonly events: HostEvents;
  readonly log: LogSink;
}

/**
 * The long-running Host (the app, `harbor web`) follows harbor.json: every change on disk is read
 * again once the file settles. A server added by hand starts, a removed one stops and disappears, a
 * changed one restarts (ServerManager.apply: only what changed); a broken file keeps the last good
 * registry running and is said — what and where (line, column) — in Harbor's log and as
 * `registry.changed` (the app's banner). Harbor's own writes are the text it last wrote (by hash),
 * so they reload nothing. The folder is watched, not the file: every save (Harbor's included)
 * replaces the file by a rename. The CLI does not watch: it reads the file once per command.
 */
export class RegistryWatch implements Disposable {
  private readonly watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RegistryWatchDeps) {}

  /** Starts watching (once the registry is loaded). A folder that cannot be watched is logged; edits then need a restart. */
  start(): void {
    if (this.disposed || this.watchers.length > 0) return;
    const places = new Map<string, Set<string>>();
    const add = (file: string) => places.set(dirname(file), (places.get(dirname(file)) ?? new Set()).add(basename(file)));
    add(this.deps.path);
    try {
      add(realpathSync(this.deps.path)); // a symlinked harbor.json (dotfile managers) changes where it points
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // no file yet: its folder is watched
    }
    for (const [folder, names] of places) {
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name === null || names.has(String(name))) this.settle();
        });
        watcher.on('error', (error) => this.stopped(error));
        this.watchers.push(watcher);
      } catch (error) {
        this.stopped(error as Error);
      }
    }
  }

  /** Resolves when every read started so far has been applied (tests, dispose). */
  idle(): Promise<void> {
    return this.running;
  }

  private settle(): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.running.then(() => this.check());
    }, SETTLE_MS);
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
    const { events, log, path } = this.deps;
    let read: Awaited<ReturnType<RegistryWatchDeps['follow']>>;
    try {
      read = await this.deps.follow();
    } catch (error) {
      // Unreadable (permissions, a folder removed): said, and the next change is read again.
      log.write('error', { area: 'registry', message: `could not read ${path} again after it changed`, error });
      return;
    }
    if (!read || this.disposed) return;
    if (read.problems.length > 0) {
      const where = read.problems.map((p) => `${p.path}${p.line ? ` (line ${p.line}${p.column ? `, column ${p.column}` : ''})` : ''}: ${p.message}`);
      log.write('warn', { area: 'registry', message: `${path} was changed and has problems; the servers keep running as before it. ${where.join('; ')}` });
      events.emit('registry.changed', { ok: false, problems: read.problems, started: [], restarted: [], stopped: [] });
      return;
    }
    const changes = read.changes ?? { started: [], restarted: [], stopped: [], changed: [] };
    const started = [...changes.started];
    const restarted = [...changes.restarted];
    const stopped = [...changes.stopped];
    log.write('info', { area: 'registry', message: `${path} was changed: read again (started: ${started.join(', ') || 'none'}; restarted: ${restarted.join(', ') || 'none'}; stopped: ${stopped.join(', ') || 'none'})` });
    events.emit('registry.changed', { ok: true, problems: [], started, restarted, stopped });
  }

  private stopped(error: Error): void {
    this.deps.log.write('warn', { area: 'registry', message: `cannot watch ${this.deps.path} for changes (${error.message}); restart Harbor after editing it by hand` });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }
}
