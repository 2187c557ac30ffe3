/**
 * One teardown path for every long-lived thing (after VS Code's Disposable / DisposableStore).
 * A connection owns its process, transport, timers and AbortController through a store, and
 * `dispose()` is the only way they end. Disposal is idempotent and async-aware: children are
 * disposed in reverse order of registration, all of them even when one throws.
 */
export interface Disposable {
  dispose(): void | Promise<void>;
}

export function toDisposable(fn: () => void | Promise<void>): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      return fn();
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;
  private disposing: Promise<void> | undefined;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Registers a child. Adding to a disposed store disposes the child at once (nothing leaks). */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
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
