/**
 * Remembers the main window's size and position: a small JSON file in userData, written
 * atomically (temp file + rename) so a crash mid-write leaves the old state, never half a file.
 * A saved position is used only if the window would still be reachable — a monitor that was
 * unplugged, or a resolution that shrank, must not open Harbor off-screen.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BrowserWindow, Rectangle } from 'electron';
import { z } from 'zod';
import { toDisposable, type Disposable } from '../host/lifecycle';
import { makePrivateFolder } from '../host/private-files';

const Int = z.number().int().min(-100_000).max(100_000);
export const WindowStateSchema = z.object({
  x: Int,
  y: Int,
  width: z.number().int().min(100).max(100_000),
  height: z.number().int().min(100).max(100_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

/** How much of the title bar must lie on a display for a saved position to count as visible. */
const MIN_VISIBLE_WIDTH = 100;
const TITLE_BAR_HEIGHT = 32;

export function loadWindowState(path: string): WindowState | undefined {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // none yet, or unreadable: the default size and a centred window
  }
}

/** Synchronous on purpose: it runs from the window's 'close', right before the process may exit. */
export function saveWindowState(path: string, state: WindowState): void {
  makePrivateFolder(dirname(path));
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(state)}\n`, { encoding: 'utf8', mode: 0o600 });
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * The bounds to restore, or undefined when the saved window would not be reachable: its title
 * bar must overlap some display's work area by at least 100 px (or its whole width, if
 * narrower). A window larger than that display's work area is shrunk to fit it.
 */
export function restorableBounds(state: WindowState, workAreas: readonly Rectangle[]): Rectangle | undefined {
  const titleBar = { x: state.x, y: state.y, width: state.width, height: TITLE_BAR_HEIGHT };
  const display = workAreas.find((area) => {
    const o = overlap(titleBar, area);
    return o.width >= Math.min(MIN_VISIBLE_WIDTH, state.width) && o.height >= TITLE_BAR_HEIGHT / 2;
  });
  if (!display) return undefined;
  return {
    x: state.x,
    y: state.y,
    width: Math.min(state.width, display.width),
    height: Math.min(state.height, display.height),
  };
}

type TrackedWindow = Pick<BrowserWindow, 'on' | 'removeListener' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed' | 'setBounds' | 'maximize'>;

/**
 * Applies a saved state to a new (not yet shown) window, then saves its state as it changes:
 * debounced on move/resize, at once on close. Disposing stops the tracking.
 */
export function trackWindowState(
  window: TrackedWindow,
  options: {
    readonly path: string;
    readonly workAreas: () => readonly Rectangle[];
    readonly log?: (message: string, error?: unknown) => void;
    readonly debounceMs?: number;
  },
): Disposable {
  const saved = loadWindowState(options.path);
  if (saved) {
    const bounds = restorableBounds(saved, options.workAreas());
    if (bounds) window.setBounds(bounds);
    if (saved.maximized) window.maximize();
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed()) return;
    // Normal bounds: a maximized window remembers the size it returns to.
    const bounds = window.getNormalBounds();
    try {
      saveWindowState(options.path, { ...bounds, maximized: window.isMaximized() });
    } catch (error) {
      options.log?.(`Could not save the window position to ${options.path}`, error);
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, options.debounceMs ?? 500);
    timer.unref?.();
  };
  const events = ['resize', 'move', 'maximize', 'unmaximize'] as const;
  for (const event of events) window.on(event as 'resize', later);
  window.on('close', save);
  return toDisposable(() => {
    if (timer) clearTimeout(timer);
    for (const event of events) window.removeListener(event as 'resize', later);
    window.removeListener('close', save);
  });
}
