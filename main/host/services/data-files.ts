import { join } from 'node:path';
import type { DataFile } from '../data-file-errors';

/**
 * The data folder's databases, as the person is told about them when one cannot be used: what
 * each holds and what moving it aside costs. Harbor never replaces or repairs consent or
 * conversation data itself; only a damaged tasks.db is set aside automatically (tasks/database.ts).
 */
export function dataFiles(dataDir: string): { folder: DataFile; consent: DataFile; tasks: DataFile; conversations: DataFile } {
  return {
    folder: { path: dataDir, holds: "Harbor's data (consent decisions, conversations, the task list)", asideCost: 'Harbor starts with no data' },
    consent: { path: join(dataDir, 'consent.db'), holds: 'your consent decisions', asideCost: 'Harbor then forgets your consent decisions and asks again' },
    tasks: { path: join(dataDir, 'tasks.db'), holds: 'the task list', asideCost: 'only the task list is lost (the tasks ran on their servers)' },
    conversations: {
      path: join(dataDir, 'conversations.db'),
      holds: 'your conversations',
      asideCost: 'Harbor then starts with no conversations (the moved file still holds them)',
    },
  };
}
