/**
 * Finds leaked disposables (after VS Code's `ensureNoDisposablesAreLeakedInTestSuite`): installed
 * with `setDisposableTracker`, it remembers every tracked object from its creation (who made it,
 * and from where) until its dispose() runs. Objects are counted against the test that was running
 * when they were created, or against the file when no test was (module scope, beforeAll, a timer
 * that fired between tests), so each can be checked where its owner should have disposed it.
 */
import type { DisposableTracker } from '../../main/host/lifecycle';

export interface Leak {
  /** The object's class, or "toDisposable" for a plain disposable made by toDisposable(). */
  readonly name: string;
  /** Where it was created: the stack without the tracker's and the test runner's own frames. */
  readonly stack: string;
  /** The test it was created in, or undefined when created outside any test. */
  readonly test: string | undefined;
}

/** Frames that say nothing about who created the object. */
const NOISE = /[\\/](node_modules|lifecycle\.ts|leak-tracker\.ts)|node:internal|<anonymous>/;

function describeItem(item: object): string {
  const name = (item as { constructor?: { name?: string } }).constructor?.name;
  return !name || name === 'Object' ? 'toDisposable' : name;
}

function creationStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack.split('\n').slice(1).filter((line) => !NOISE.test(line));
  return frames.slice(0, 12).map((line) => line.trim()).join('\n');
}

export class LeakTracker implements DisposableTracker {
  private readonly live = new Map<object, Leak>();
  /** The test now running; objects created meanwhile belong to it. */
  current: string | undefined;
  /** The file's tests are one story sharing what they create: everything is checked at its end. */
  fileScoped = false;

  created(item: object): void {
    if (this.live.has(item)) return;
    this.live.set(item, { name: describeItem(item), stack: creationStack(), test: this.current });
  }

  disposed(item: object): void {
    this.live.delete(item);
  }

  /** Objects created in `test` (undefined: outside any test) and not disposed yet; forgets them. */
  takeLeaks(test: string | undefined): Leak[] {
    const leaks: Leak[] = [];
    for (const [item, leak] of this.live) {
      if (leak.test !== test) continue;
      leaks.push(leak);
      this.live.delete(item);
    }
    return leaks;
  }

  /** Every object not disposed yet, wherever it was created. */
  get size(): number {
    return this.live.size;
  }
}

/** The failure message: what leaked and where each was created. */
export function describeLeaks(leaks: readonly Leak[], where: string): string {
  const lines = [`${leaks.length} disposable${leaks.length === 1 ? '' : 's'} created ${where} ${leaks.length === 1 ? 'was' : 'were'} never disposed:`];
  for (const leak of leaks) {
    lines.push(`  - ${leak.name}, created`);
    for (const frame of leak.stack.split('\n')) lines.push(`      ${frame}`);
  }
  lines.push('Dispose what the test creates (await x.dispose() in the test or its afterEach/afterAll).');
  return lines.join('\n');
}

/** The tracker of this test file (test/setup/leak-check.ts installs it and checks it). */
export const leakTracker = new LeakTracker();

/**
 * For a file whose tests are steps of one story, sharing what earlier steps created (the app
 * started in one test, used by the next ones, quit in the last): what any of them creates must be
 * disposed by the end of the file instead of the end of each test. Call at the top of the file.
 */
export function checkLeaksAtEndOfFile(): void {
  leakTracker.fileScoped = true;
}
