/**
 * A store over one data file as the Host holds it: opened on its first use, not when the Host is
 * built (so a damaged tasks.db stops only what needs the task list, never `harbor info`), and
 * every failure of it — opening, migrating, reading, writing — told as `dataFileError` tells it,
 * naming the file and the way out. Stores are synchronous (node:sqlite); a method that returns a
 * promise has its rejection told the same way. Objects a store exposes as properties (consent's
 * secret bindings) are guarded too.
 */
import { dataFileError, guardData, type DataFile } from './data-file-errors';
import { HarborError } from './errors';
import type { Disposable } from './lifecycle';

type Method = (...args: unknown[]) => unknown;

/**
 * Each store's method wrappers, made on first use and kept: a tool call reads the consent store a
 * few times, and a new wrapper (two closures) on every read was a third of what its consent check
 * allocated. Keyed weakly by the store, then by the method itself (what `key` resolves to now).
 */
const wrappers = new WeakMap<object, Map<Method, Method>>();

// `call` and `member` run on every read of a store (several per tool call): guardData's try/catch
// written out, so no closure is made for it each time.
function call(file: DataFile, target: object, method: Method, args: unknown[]): unknown {
  let result: unknown;
  try {
    result = method.apply(target, args);
  } catch (error) {
    throw dataFileError(error, file);
  }
  if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(dataFileError(error, file)));
  return result;
}

function wrapperOf(file: DataFile, target: object, method: Method): Method {
  let byMethod = wrappers.get(target);
  if (!byMethod) wrappers.set(target, (byMethod = new Map()));
  let wrapper = byMethod.get(method);
  if (!wrapper) byMethod.set(method, (wrapper = (...args: unknown[]) => call(file, target, method, args)));
  return wrapper;
}

function member(file: DataFile, target: object, key: string | symbol): unknown {
  let value: unknown;
  try {
    value = Reflect.get(target, key, target);
  } catch (error) {
    throw dataFileError(error, file);
  }
  if (typeof value === 'function') return wrapperOf(file, target, value as Method);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return guardedDataFile(file, value);
  return value;
}

/** `target`'s methods, their failures told as failures of `file`. */
export function guardedDataFile<T extends object>(file: DataFile, target: T): T {
  return new Proxy(target, { get: (object, key) => member(file, object, key) });
}

/**
 * A stand-in for the store `open` makes, made on first use. `dispose` before any use opens
 * nothing; after `dispose` the store is not opened again (a late caller gets CANCELLED).
 */
export function lazyDataFile<T extends Disposable>(file: DataFile, open: () => T): T {
  let store: T | undefined;
  let disposed = false;
  const opened = (): T => {
    if (!store) {
      if (disposed) throw new HarborError('CANCELLED', `Harbor is stopping: ${file.path} is closed.`);
      store = guardData(file, open);
    }
    return store;
  };
  const dispose = () => {
    disposed = true;
    return store?.dispose();
  };
  return new Proxy({} as T, {
    get: (_object, key) => {
      if (key === 'dispose') return dispose;
      // Not a promise: `await`ing the stand-in, or printing it, must not open the file.
      if (key === 'then' || typeof key === 'symbol') return undefined;
      return member(file, opened(), key);
    },
  });
}
