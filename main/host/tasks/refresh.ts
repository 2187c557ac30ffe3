import { listLegacyTasks, getTask } from '../servers/task-wire/requests';
import type { TaskSnapshot } from '../servers/task-wire/shapes';
import { isUnknownTask } from './failures';
import type { TaskConnection } from './follower';
import type { TaskRecord } from './rows';

/** What one look at a server says of the tasks Harbor knows there: a snapshot, or that it knows the task no more. */
export type Sighting = { readonly snapshot: TaskSnapshot } | { readonly unknown: true };

/**
 * One look at `records` (unfinished tasks of one server) as the server sees them now: a legacy
 * server that lists its tasks answers with one `tasks/list`; otherwise each task is asked for
 * with `tasks/get`. A task the server does not know any more is reported as such.
 */
export async function lookAtTasks(connection: TaskConnection, records: readonly TaskRecord[]): Promise<Map<string, Sighting>> {
  const sightings = new Map<string, Sighting>();
  if (records.length === 0) return sightings;
  const era = connection.info.era ?? 'legacy';
  const lists = era === 'legacy' && (connection.info.capabilities as { tasks?: { list?: unknown } } | undefined)?.tasks?.list !== undefined;
  if (lists) {
    const listed = await connection.requestOn('listing tasks', {}, (client, options) => listLegacyTasks(client, options));
    const byId = new Map(listed.map((task) => [task.taskId, task]));
    for (const record of records) {
      const snapshot = byId.get(record.taskId);
      sightings.set(record.taskId, snapshot ? { snapshot } : { unknown: true });
    }
    return sightings;
  }
  for (const record of records) {
    try {
      const snapshot = await connection.requestOn(`checking task ${record.taskId}`, {}, (client, options) => getTask(client, era, record.taskId, options));
      sightings.set(record.taskId, { snapshot });
    } catch (error) {
      if (!isUnknownTask(error)) throw error;
      sightings.set(record.taskId, { unknown: true });
    }
  }
  return sightings;
}
