/**
 * The desktop app's folder picker for a server's roots: the system dialog (a stand-in here, since
 * Electron is not run in unit tests) opened for folders only, on the app's window; a cancelled
 * dialog picks nothing. Elsewhere the command answers "unsupported".
 */
import { describe, expect, it } from 'vitest';
import type { BrowserWindow, OpenDialogOptions } from 'electron';
import { folderPickerHandlers, type FolderDialog } from '../../main/shell/folder-picker';
import { bindCommands } from '../../main/contract-handlers';
import type { Host } from '../../main/host/host';

function fakeDialog(result: { canceled: boolean; filePaths: string[] }) {
  const opened: { parent: unknown; options: OpenDialogOptions }[] = [];
  const dialog = {
    showOpenDialog: (parentOrOptions: unknown, maybeOptions?: OpenDialogOptions) => {
      opened.push(maybeOptions ? { parent: parentOrOptions, options: maybeOptions } : { parent: undefined, options: parentOrOptions as OpenDialogOptions });
      return Promise.resolve({ ...result, bookmarks: [] });
    },
  } as unknown as FolderDialog;
  return { dialog, opened };
}

describe('app.pickFolder', () => {
  it('opens a folders-only dialog on the app window and answers the folder chosen', async () => {
    const window = {} as BrowserWindow;
    const { dialog, opened } = fakeDialog({ canceled: false, filePaths: ['/home/me/project'] });
    expect(await folderPickerHandlers(dialog, () => window)['app.pickFolder']({})).toEqual({ supported: true, path: '/home/me/project' });
    expect(opened[0]!.parent).toBe(window);
    expect(opened[0]!.options.properties).toContain('openDirectory');
    expect(opened[0]!.options.properties).not.toContain('openFile');
  });

  it('a cancelled dialog picks nothing; without a window it still opens', async () => {
    const { dialog, opened } = fakeDialog({ canceled: true, filePaths: [] });
    expect(await folderPickerHandlers(dialog, () => undefined)['app.pickFolder']({})).toEqual({ supported: true });
    expect(opened[0]!.parent).toBeUndefined();
  });

  it('browser mode and the CLI have no picker', async () => {
    expect(await bindCommands({} as Host)['app.pickFolder']({})).toEqual({ supported: false });
  });
});
