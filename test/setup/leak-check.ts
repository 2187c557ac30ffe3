/**
 * The leak check of every unit and integration test (vitest setupFiles): each tracked disposable
 * (toDisposable, DisposableStore, and the long-lived classes that call trackDisposable) must be
 * disposed by the end of its owner's scope, or the test fails listing what leaked and where it was
 * created.
 *
 * - Created while a test runs (in the test, or its beforeEach): disposed by the end of that test,
 *   its afterEach hooks, cleanups and onTestFinished callbacks included.
 * - Created outside any test (module scope, beforeAll, a callback between tests): disposed by the
 *   end of the file, its afterAll hooks included. A file that shares one Host across its tests
 *   creates it in beforeAll and disposes it in afterAll.
 * - A file whose tests are steps of one story (checkLeaksAtEndOfFile() at its top): everything
 *   it creates is checked at the end of the file.
 *
 * An object meant to live as long as the process (the Electron app's console mirror and quit
 * controller) says so with markAsSingleton() and is not counted.
 */
import { afterAll, beforeEach } from 'vitest';
import { setDisposableTracker } from '../../main/host/lifecycle';
import { describeLeaks, leakTracker as tracker } from '../helpers/leak-tracker';

setDisposableTracker(tracker);

beforeEach((context) => {
  if (tracker.fileScoped) return;
  const test = context.task.id;
  tracker.current = test;
  // Registered first, so it runs last: after the file's afterEach hooks, the cleanups beforeEach
  // returned, and the test's own onTestFinished callbacks.
  context.onTestFinished(() => {
    tracker.current = undefined;
    const leaks = tracker.takeLeaks(test);
    if (leaks.length > 0) throw new Error(describeLeaks(leaks, 'in this test'));
  });
});

afterAll(() => {
  const leaks = tracker.takeLeaks(undefined);
  const where = tracker.fileScoped ? 'in this file' : 'outside the tests of this file (module scope, beforeAll, or after a test ended)';
  if (leaks.length > 0) throw new Error(describeLeaks(leaks, where));
});
