/**
 * main/shell/quit.ts: every quit waits for the servers to stop; a second quit while stopping
 * forces the exit; OS shutdown and Windows session end take the same path. Electron's app is an
 * emitter here with Electron's before-quit semantics (a prevented quit does not proceed).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { QuitController, quitOnOsShutdown, quitOnSessionEnd } from '../../main/shell/quit';
import { disposeAfterTest } from '../helpers/dispose-after-test';

class FakeApp extends EventEmitter {
  readonly log: string[] = [];
  quit() {
    this.log.push('quit');
    const event = { prevented: false, preventDefault() { this.prevented = true; } };
    this.emit('before-quit', event);
    if (!event.prevented) this.log.push('exits');
  }
  exit(code: number) {
    this.log.push(`exit(${code})`);
  }
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('QuitController', () => {
  it('holds the quit until every server stopped, then lets it through once', async () => {
    const app = new FakeApp();
    const stopping = deferred();
    let stops = 0;
    const quit = disposeAfterTest(new QuitController({ app: app as never, stop: () => (stops++, stopping.promise), log: () => undefined }));
    app.quit();
    expect(app.log).toEqual(['quit']);
    expect(quit.state).toBe('stopping');
    stopping.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(app.log).toEqual(['quit', 'quit', 'exits']);
    expect(quit.state).toBe('done');
    expect(stops).toBe(1);
  });

  it('a second quit while stopping exits at once', () => {
    const app = new FakeApp();
    disposeAfterTest(new QuitController({ app: app as never, stop: () => new Promise(() => undefined), log: () => undefined }));
    app.quit();
    app.quit();
    expect(app.log).toEqual(['quit', 'quit', 'exit(1)']);
  });

  it('a stop that fails still exits, and says so', async () => {
    const app = new FakeApp();
    const lines: string[] = [];
    disposeAfterTest(new QuitController({ app: app as never, stop: () => Promise.reject(new Error('stuck')), log: (m) => lines.push(m) }));
    app.quit();
    await new Promise((r) => setTimeout(r, 0));
    expect(app.log.at(-1)).toBe('exits');
    expect(lines).toContain('Shutdown did not finish cleanly');
  });

  it('stopThen runs its own ending (the updater\'s quitAndInstall) after the stop, and the quit it triggers passes', async () => {
    const app = new FakeApp();
    const quit = disposeAfterTest(new QuitController({ app: app as never, stop: async () => undefined, log: () => undefined }));
    quit.stopThen(() => {
      app.log.push('quitAndInstall');
      app.quit(); // electron-updater quits the app itself
    });
    quit.stopThen(() => app.log.push('never: already stopping'));
    await new Promise((r) => setTimeout(r, 0));
    expect(app.log).toEqual(['quitAndInstall', 'quit', 'exits']);
  });

  it('dispose removes the before-quit hold', () => {
    const app = new FakeApp();
    const quit = new QuitController({ app: app as never, stop: async () => undefined, log: () => undefined });
    quit.dispose();
    app.quit();
    expect(app.log).toEqual(['quit', 'exits']);
  });
});

describe('OS shutdown', () => {
  it('Linux/macOS: powerMonitor shutdown delays the OS (preventDefault) and quits through the same path', async () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const powerMonitor = new EventEmitter();
      const calls: string[] = [];
      const binding = quitOnOsShutdown(() => calls.push('quit'), { powerMonitor: powerMonitor as never, platform });
      powerMonitor.emit('shutdown', { preventDefault: () => calls.push('preventDefault') });
      expect(calls).toEqual(['preventDefault', 'quit']);
      await binding.dispose();
      expect(powerMonitor.listenerCount('shutdown')).toBe(0);
    }
  });

  it('Windows: the window\'s session-end quits; powerMonitor shutdown is not used there', () => {
    const powerMonitor = new EventEmitter();
    const window = new EventEmitter();
    const calls: string[] = [];
    disposeAfterTest(quitOnOsShutdown(() => calls.push('pm'), { powerMonitor: powerMonitor as never, platform: 'win32' }));
    quitOnSessionEnd(window as never, () => calls.push('session-end'), 'win32');
    quitOnSessionEnd(new EventEmitter() as never, () => calls.push('linux?'), 'linux');
    powerMonitor.emit('shutdown', { preventDefault: () => undefined });
    window.emit('session-end', { reasons: ['shutdown'] });
    expect(calls).toEqual(['session-end']);
  });
});
