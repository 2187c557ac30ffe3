/** main/shell/menu.ts with electron's Menu stood in: the template per platform and its actions. */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const applied: unknown[] = [];
  return {
    applied,
    module: {
      Menu: {
        buildFromTemplate: (template: unknown) => ({ built: template }),
        setApplicationMenu: (menu: unknown) => applied.push(menu),
      },
    },
  };
});
vi.mock('electron', () => electron.module);

const { buildMenuTemplate, installAppMenu } = await import('../../main/shell/menu');

function actions() {
  const calls: string[] = [];
  return { calls, actions: { openLogsFolder: () => calls.push('logs'), checkForUpdates: () => calls.push('updates') } };
}
const submenu = (template: MenuItemConstructorOptions[], label: string) =>
  (template.find((m) => m.label === label || m.role === label)?.submenu ?? []) as MenuItemConstructorOptions[];
const roles = (items: MenuItemConstructorOptions[]) => items.map((i) => i.role ?? i.label ?? i.type);

describe('buildMenuTemplate', () => {
  it('macOS: an app menu with Quit (Cmd-Q), and Edit roles so copy/paste work in text fields', () => {
    const t = buildMenuTemplate({ platform: 'darwin', appName: 'Harbor', isPackaged: true, ...actions() });
    expect(t.map((m) => m.label ?? m.role)).toEqual(['Harbor', 'File', 'Edit', 'View', 'Window', 'help']);
    expect(roles(submenu(t, 'Harbor'))).toContain('quit');
    expect(roles(submenu(t, 'Edit'))).toEqual(['undo', 'redo', 'separator', 'cut', 'copy', 'paste', 'pasteAndMatchStyle', 'delete', 'separator', 'selectAll']);
    expect(roles(submenu(t, 'File'))).toEqual(['close']);
  });

  it('Windows/Linux: Quit in File, no macOS-only roles', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const t = buildMenuTemplate({ platform, appName: 'Harbor', isPackaged: true, ...actions() });
      expect(t.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'Window', 'help']);
      expect(roles(submenu(t, 'File'))).toEqual(['quit']);
      expect(roles(submenu(t, 'Edit'))).toEqual(expect.arrayContaining(['cut', 'copy', 'paste', 'selectAll']));
      expect(JSON.stringify(t)).not.toMatch(/pasteAndMatchStyle|hideOthers|services/);
    }
  });

  it('Help → Open Logs Folder and Check for Updates call their actions', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const { calls, actions: a } = actions();
      const t = buildMenuTemplate({ platform, appName: 'Harbor', isPackaged: true, actions: a });
      const all = t.flatMap((m) => (m.submenu ?? []) as MenuItemConstructorOptions[]);
      all.find((i) => i.label === 'Open Logs Folder')?.click?.({} as never, undefined, {} as never);
      all.find((i) => i.label === 'Check for Updates…')?.click?.({} as never, undefined, {} as never);
      expect(calls).toEqual(['logs', 'updates']);
    }
  });

  it('developer tools and reload only in development builds', () => {
    const dev = buildMenuTemplate({ platform: 'linux', appName: 'Harbor', isPackaged: false, ...actions() });
    const packaged = buildMenuTemplate({ platform: 'linux', appName: 'Harbor', isPackaged: true, ...actions() });
    expect(roles(submenu(dev, 'View'))).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    expect(roles(submenu(packaged, 'View'))).not.toEqual(expect.arrayContaining(['toggleDevTools']));
    expect(roles(submenu(packaged, 'View'))).not.toContain('reload');
  });
});

describe('installAppMenu', () => {
  it('builds the template and sets it as the application menu', () => {
    installAppMenu({ platform: 'linux', appName: 'Harbor', isPackaged: true, ...actions() });
    expect(electron.applied).toHaveLength(1);
    expect((electron.applied[0] as { built: unknown[] }).built).toHaveLength(5);
  });
});
