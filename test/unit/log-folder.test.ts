/**
 * "Open log folder" (#28 §1): the desktop app opens the Host's log folder in the file manager and
 * says when the system refused; browser mode (the Host's own handler) cannot open folders and gives
 * the folder's path instead. Electron's `shell.openPath` cannot run here (no Electron binary): it
 * is stood in for by a recorder with its signature; the Host side is real.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindCommands } from '../../main/contract-handlers';
import { logFolderHandlers } from '../../main/shell/log-folder';
import { createTestHost, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('Open log folder', () => {
  it('in browser mode gives the Host’s log folder (DATA/logs) to copy, opening nothing', async () => {
    current = await createTestHost({});
    const answer = await bindCommands(current.host)['app.openLogFolder']({});
    expect(answer).toEqual({ supported: false, path: join(current.dir, 'logs') });
  });

  it('in the desktop app opens that folder, and passes on the system’s refusal', async () => {
    const opened: string[] = [];
    let refusal = '';
    const handlers = logFolderHandlers({ openPath: async (path: string) => (opened.push(path), refusal) }, () => '/data/logs');
    expect(await handlers['app.openLogFolder']({})).toEqual({ supported: true, path: '/data/logs' });
    refusal = 'Failed to open path';
    expect(await handlers['app.openLogFolder']({})).toEqual({ supported: true, path: '/data/logs', problem: 'Failed to open path' });
    expect(opened).toEqual(['/data/logs', '/data/logs']);
  });
});
