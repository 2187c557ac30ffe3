/**
 * The desktop app's folder picker, for a server's roots in the server editor: the system's own
 * "choose a folder" dialog, attached to the app's window. Browser mode and the CLI answer
 * `app.pickFolder` as unsupported (main/contract-handlers.ts) and the editor takes typed paths.
 */
import type { BrowserWindow, Dialog, OpenDialogOptions } from 'electron';
import type { CommandHandlers } from '../dispatch';

export type FolderDialog = Pick<Dialog, 'showOpenDialog'>;

const OPTIONS: OpenDialogOptions = {
  title: 'Choose a folder the server may work in',
  buttonLabel: 'Choose folder',
  properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'],
};

export function folderPickerHandlers(dialog: FolderDialog, window: () => BrowserWindow | undefined): Pick<CommandHandlers, 'app.pickFolder'> {
  return {
    'app.pickFolder': async () => {
      const parent = window();
      const result = parent ? await dialog.showOpenDialog(parent, OPTIONS) : await dialog.showOpenDialog(OPTIONS);
      const path = result.canceled ? undefined : result.filePaths[0];
      return { supported: true, ...(path ? { path } : {}) };
    },
  };
}
