/** Harbor's own log (DATA/logs/harbor.log) as the Activity page reads it. */
import { z } from 'zod';

export const HarborLogLevel = z.enum(['debug', 'info', 'warn', 'error']);
export type HarborLogLevel = z.infer<typeof HarborLogLevel>;

/** One stored line: time, level, the part of Harbor that wrote it, the server concerned, the message, the code, and the error's own fields. */
export const HarborLogEntryData = z.looseObject({
  time: z.string(),
  level: HarborLogLevel,
  area: z.string(),
  message: z.string(),
  server: z.string().optional(),
  code: z.string().optional(),
});
export type HarborLogEntryData = z.infer<typeof HarborLogEntryData>;

export const HarborLogView = z.object({
  /** The newest entries that pass the filter (at most 1,000), oldest first. */
  entries: z.array(HarborLogEntryData),
  /** Lines that were not log entries (torn by a crash, edited by hand). */
  unreadable: z.number().int(),
  /** Where the log is, for the person to open or copy. */
  path: z.string(),
});
export type HarborLogView = z.infer<typeof HarborLogView>;

export const harborLogCommands = {
  /** Harbor's own log, filtered by server and lowest level (the code behind `harbor logs`). */
  'harborLog.read': {
    request: z.object({ server: z.string().min(1).max(100).optional(), level: HarborLogLevel.optional() }).strict(),
    response: HarborLogView,
  },
  /**
   * Opens the log's folder in the system's file manager: the desktop app does (`supported`), a
   * browser page cannot, and gets the folder's path to copy instead. `problem`: the system's refusal.
   */
  'app.openLogFolder': {
    request: z.object({}).strict(),
    response: z.object({ supported: z.boolean(), path: z.string(), problem: z.string().optional() }),
  },
};
