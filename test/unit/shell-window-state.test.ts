/** main/shell/window-state.ts: size/position remembered atomically, restored only on a visible display. */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Rectangle } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWindowState, restorableBounds, saveWindowState, trackWindowState, type WindowState } from '../../main/shell/window-state';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-window-state-'));
  dirs.push(dir);
  return dir;
}

const laptop: Rectangle = { x: 0, y: 25, width: 1440, height: 875 };
const rightMonitor: Rectangle = { x: 1440, y: 0, width: 2560, height: 1440 };
const state = (s: Partial<WindowState>): WindowState => ({ x: 100, y: 100, width: 1200, height: 800, maximized: false, ...s });

describe('restorableBounds', () => {
  it('restores a window on a display', () => {
    expect(restorableBounds(state({}), [laptop])).toEqual({ x: 100, y: 100, width: 1200, height: 800 });
  });

  it('refuses a position on a monitor that is gone', () => {
    expect(restorableBounds(state({ x: 2000, y: 200 }), [laptop, rightMonitor])).toMatchObject({ x: 2000 });
    expect(restorableBounds(state({ x: 2000, y: 200 }), [laptop])).toBeUndefined();
  });

  it('refuses a window whose title bar is off-screen, even if its body shows', () => {
    expect(restorableBounds(state({ y: -300 }), [laptop])).toBeUndefined();
    expect(restorableBounds(state({ x: 1400, y: 100 }), [laptop])).toBeUndefined(); // 40 px of title bar visible
    expect(restorableBounds(state({ x: 1300, y: 100 }), [laptop])).toMatchObject({ x: 1300 }); // 140 px visible
  });

  it('shrinks a window larger than its display', () => {
    expect(restorableBounds(state({ x: 0, y: 25, width: 3000, height: 2000 }), [laptop])).toEqual({ x: 0, y: 25, width: 1440, height: 875 });
  });
});

describe('loadWindowState / saveWindowState', () => {
  it('round-trips through an atomic write that leaves no temp file', () => {
    const path = join(tempDir(), 'sub', 'window-state.json');
    saveWindowState(path, state({ maximized: true }));
    expect(loadWindowState(path)).toEqual(state({ maximized: true }));
    expect(readdirSync(join(path, '..'))).toEqual(['window-state.json']);
  });

  it('ignores a missing, corrupt or out-of-range file', () => {
    const dir = tempDir();
    expect(loadWindowState(join(dir, 'none.json'))).toBeUndefined();
    writeFileSync(join(dir, 'half.json'), '{"x": 1, "y":');
    expect(loadWindowState(join(dir, 'half.json'))).toBeUndefined();
    writeFileSync(join(dir, 'tiny.json'), JSON.stringify(state({ width: 3 })));
    expect(loadWindowState(join(dir, 'tiny.json'))).toBeUndefined();
  });
});

class FakeWindow extends EventEmitter {
  bounds = { x: 10, y: 20, width: 1200, height: 800 };
  maximized = false;
  destroyed = false;
  readonly calls: string[] = [];
  setBounds(b: Partial<Rectangle>) {
    this.bounds = { ...this.bounds, ...b };
    this.calls.push(`setBounds ${JSON.stringify(b)}`);
  }
  getNormalBounds() {
    return this.bounds;
  }
  isMaximized() {
    return this.maximized;
  }
  maximize() {
    this.maximized = true;
    this.calls.push('maximize');
  }
  isDestroyed() {
    return this.destroyed;
  }
}

describe('trackWindowState', () => {
  it('restores a visible saved state before showing, then saves on close', () => {
    const path = join(tempDir(), 'window-state.json');
    saveWindowState(path, state({ x: 200, y: 150, width: 1000, height: 700, maximized: true }));
    const window = new FakeWindow();
    const tracking = trackWindowState(window as never, { path, workAreas: () => [laptop] });
    expect(window.calls).toEqual(['setBounds {"x":200,"y":150,"width":1000,"height":700}', 'maximize']);

    window.bounds = { x: 300, y: 300, width: 900, height: 600 };
    window.maximized = false;
    window.emit('close');
    expect(loadWindowState(path)).toEqual(state({ x: 300, y: 300, width: 900, height: 600 }));
    void tracking.dispose();
  });

  it('keeps the default placement when the saved display is gone', () => {
    const path = join(tempDir(), 'window-state.json');
    saveWindowState(path, state({ x: 3000, y: 100 }));
    const window = new FakeWindow();
    void trackWindowState(window as never, { path, workAreas: () => [laptop] }).dispose();
    expect(window.calls).toEqual([]);
  });

  it('saves after moves and resizes settle (debounced), and stops when disposed', async () => {
    const path = join(tempDir(), 'window-state.json');
    const window = new FakeWindow();
    const tracking = trackWindowState(window as never, { path, workAreas: () => [laptop], debounceMs: 20 });
    window.bounds = { x: 50, y: 60, width: 800, height: 600 };
    window.emit('move');
    window.emit('resize');
    expect(existsSync(path)).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ x: 50, y: 60, width: 800, height: 600 });
    void tracking.dispose();
    window.bounds = { x: 1, y: 1, width: 500, height: 500 };
    window.emit('close');
    expect(loadWindowState(path)).toMatchObject({ x: 50 });
    expect(window.listenerCount('close')).toBe(0);
  });

  it('reports a failed save without throwing', () => {
    const dir = tempDir();
    const path = join(dir, 'window-state.json');
    const problems: string[] = [];
    const window = new FakeWindow();
    const tracking = trackWindowState(window as never, { path: join(path, 'not-a-dir', 'x.json'), workAreas: () => [laptop], log: (m) => problems.push(m) });
    writeFileSync(path, 'a file where a folder is needed');
    window.emit('close');
    expect(problems).toHaveLength(1);
    void tracking.dispose();
  });
});
