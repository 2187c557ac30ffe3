/**
 * One teardown path for every long-lived thing (after VS Code's Disposable / DisposableStore).
 * A connection owns its process, transport, timers and AbortController through a store, and
 * `dispose()` is the only way they end. Disposal is idempotent and async-aware: children are
 * disposed in reverse order of registration, all of them even when one throws.
 *
 * Leak tracking (VS Code's `trackDisposable` / `markAsDisposed`): long-lived objects announce
 * themselves when created and when disposed. Nothing is recorded unless a tracker is installed;
 * the unit tests install one and fail a test file that leaves something undisposed.
 */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** Receives every tracked object's creation and disposal (tests only). */
export interface DisposableTracker {
  created(item: object): void;
  disposed(item: object): void;
}

let tracker: DisposableTracker | undefined;

/** Installs (or, with undefined, removes) the tracker; returns the previous one. */
export function setDisposableTracker(next: DisposableTracker | undefined): DisposableTracker | undefined {
  const previous = tracker;
  tracker = next;
  return previous;
}

/** Called by a long-lived object when it is created: from now on it must be disposed. */
export function trackDisposable<T extends object>(item: T): T {
  tracker?.created(item);
  return item;
}

/** Called by a long-lived object when its dispose() runs (idempotent for the tracker). */
export function markAsDisposed(item: object): void {
  tracker?.disposed(item);
}

/**
 * Called for an object that lives as long as the process (the Electron app's console mirror):
 * it is never disposed, and the tracker stops expecting it to be.
 */
export function markAsSingleton<T extends object>(item: T): T {
  tracker?.disposed(item);
  return item;
}

export function toDisposable(fn: () => void | Promise<void>): Disposable {
  let done = false;
  const disposable: Disposable = {
    dispose: () => {
      if (done) return;
      done = true;
      markAsDisposed(disposable);
      return fn();
    },
  };
  return trackDisposable(disposable);
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;
  private disposing: Promise<void> | undefined;

  constructor() {
    trackDisposable(this);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Registers a child. Adding to a disposed store disposes the child at once (nothing leaks). */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      // As in dispose(): teardown goes on for every child; a child's own dispose reports what it must.
      void Promise.resolve(item.dispose()).catch(() => undefined);
      return item;
    }
    this.items.push(item);
    return item;
  }

  /** Removes a child without disposing it (its owner changed). */
  delete(item: Disposable): void {
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
  }

  get size(): number {
    return this.items.length;
  }

  dispose(): Promise<void> {
    if (this.disposing) return this.disposing;
    this.disposed = true;
    markAsDisposed(this);
    const items = this.items.splice(0).reverse();
    this.disposing = (async () => {
      const errors: unknown[] = [];
      for (const item of items) {
        try {
          await item.dispose();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, 'Several children failed to dispose');
    })();
    return this.disposing;
  }
}
