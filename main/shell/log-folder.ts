/**
 * The desktop app's "Open log folder" (Settings): the Host's log folder (DATA/logs, where
 * harbor.log and its rotated files are) in the system's file manager. The folder is the Host's,
 * never one the page names.
 */
import type { Shell } from 'electron';
import type { CommandHandlers } from '../dispatch';

export function logFolderHandlers(shell: Pick<Shell, 'openPath'>, folder: () => string): Pick<CommandHandlers, 'app.openLogFolder'> {
  return {
    'app.openLogFolder': async () => {
      const path = folder();
      // openPath answers '' on success, else the system's reason.
      const problem = await shell.openPath(path);
      return { supported: true, path, ...(problem ? { problem } : {}) };
    },
  };
}
