import { join } from 'node:path';
import type { HarborLogView } from '../../../preload/contract';
import { LOG_FILE_NAME } from '../log/harbor-log';
import type { LogLevel } from '../log/log-entry';
import { readLog } from '../log/log-reader';

/** The most entries one read returns (the newest): the page shows a window, `harbor logs` has them all. */
const MAX_ENTRIES = 1_000;

/** Harbor's own log for the app's Activity page, read with the code behind `harbor logs`. */
export class HarborLogReader {
  private readonly path: string;

  constructor(private readonly logDir: string) {
    this.path = join(logDir, LOG_FILE_NAME);
  }

  /** The folder the log and its rotated files are in (Settings' "Open log folder"). */
  folder(): { readonly path: string } {
    return { path: this.logDir };
  }

  read(filter: { readonly server?: string; readonly level?: LogLevel } = {}): HarborLogView {
    const { entries, unreadable } = readLog(this.path, filter);
    return { entries: entries.slice(-MAX_ENTRIES), unreadable, path: this.path };
  }
}
