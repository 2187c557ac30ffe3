/**
 * Which process follows a task, as tasks.db keeps it: `<kind>:<pid>:<start time>` (the start
 * time tells a pid reused by a later process apart). `cli` is a `harbor` command, which follows
 * only the tasks it started and only while it runs; `app` is the app or browser mode, whose
 * unfinished tasks the next one follows again.
 */
import { hostInstanceId, instanceAlive } from '../servers/stdio/orphans';

export type OwnerKind = 'cli' | 'app';

/** A JSON-RPC-shaped code of Harbor's own (the server sent no error): nobody follows the task any more. */
export const ABANDONED_CODE = -32001;

/** This process as an owner; undefined where its start time cannot be read (then no task of it is ever taken for abandoned). */
export function ownerOf(kind: OwnerKind): string | undefined {
  const instance = hostInstanceId();
  return instance === undefined ? undefined : `${kind}:${instance}`;
}

/** True only when the owner is known to be gone ("cannot tell" is alive). */
export function ownerGone(owner: string): boolean {
  const instance = owner.slice(owner.indexOf(':') + 1);
  return instanceAlive(instance) === false;
}

export function abandonedMessage(owner: string): string {
  const pid = owner.split(':')[1];
  return `Harbor no longer follows this task: the process that followed it (pid ${pid}) is gone (killed or crashed). The task may have gone on on its server; its result, if any, was not received.`;
}
