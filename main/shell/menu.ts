/**
 * The application menu. The Edit menu's roles are not decoration: on macOS, copy, paste and
 * select-all in every text field (the chat box, the server editor) only work through menu items
 * with those roles. Help → "Open logs folder" is where a person finds what to attach to a report.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  readonly openLogsFolder: () => void;
  readonly checkForUpdates: () => void;
}

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Development builds get Reload and the developer tools; packaged ones do not. */
  readonly isPackaged: boolean;
  readonly actions: MenuActions;
}

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { platform, appName, isPackaged, actions } = options;
  const mac = platform === 'darwin';
  const checkForUpdates: MenuItemConstructorOptions = { label: 'Check for Updates…', click: () => actions.checkForUpdates() };

  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        checkForUpdates,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        // Cmd-Q: goes through before-quit, which stops every server first.
        { role: 'quit' },
      ],
    });
  }
  template.push({ label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] });
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });
  template.push({
    label: 'View',
    submenu: [
      ...(isPackaged ? [] : [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const]),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({
    label: 'Window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });
  template.push({
    role: 'help',
    submenu: [{ label: 'Open Logs Folder', click: () => actions.openLogsFolder() }, ...(mac ? [] : [{ type: 'separator' } as const, checkForUpdates])],
  });
  return template;
}

export function installAppMenu(options: MenuOptions, menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'> = Menu): void {
  menu.setApplicationMenu(menu.buildFromTemplate(buildMenuTemplate(options)));
}
