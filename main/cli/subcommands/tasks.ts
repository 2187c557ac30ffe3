import type { TaskView } from '../../../preload/contract';
import type { CliCommandCode } from '../command';
import { EXIT } from '../output';

/** The `harbor tasks --json` line: every field of the task (taskId, server, tool, status, statusMessage, createdAt, lastUpdatedAt, …). */
export function taskLine(task: TaskView): Record<string, unknown> {
  return { ...task };
}

function elapsed(task: TaskView, now: number): string {
  const seconds = Math.round(((task.endedAt ?? now) - task.startedAt) / 1000);
  return seconds < 120 ? `${seconds}s` : `${Math.round(seconds / 60)}m`;
}

function humanLine(task: TaskView, now: number): string {
  const status = task.cancelRequested && task.endedAt === undefined ? `${task.status} (cancelling)` : task.status;
  const about = task.error ? `${task.error.message} (code ${task.error.code})` : (task.statusMessage ?? '');
  return `${task.taskId}  ${task.server}/${task.tool}  ${status.padEnd(14)} ${elapsed(task, now).padStart(5)}  ${about}`;
}

/** `harbor tasks [SERVER]`: the tasks Harbor followed (kept in the data folder), newest first. */
export const tasksCommand: CliCommandCode = {
  async run(ctx) {
    const [server] = ctx.args;
    // Without --refresh the list is only read (tasks of a killed command are still marked ended).
    const host = await ctx.host({ readOnly: ctx.options.refresh !== true });
    let tasks: TaskView[];
    if (ctx.options.refresh === true) {
      if (server === undefined) {
        ctx.out.error('--refresh asks one server: name it, e.g. "harbor tasks SERVER --refresh".');
        return EXIT.USAGE;
      }
      host.registry.requireValid();
      tasks = await host.tasks.refresh(server);
    } else {
      tasks = host.tasks.list(server);
    }
    const now = Date.now();
    for (const task of tasks) ctx.out.result(taskLine(task), humanLine(task, now));
    if (tasks.length === 0) ctx.out.info(server === undefined ? 'No tasks yet: a server that runs a tool call as a task shows it here.' : `No tasks of "${server}".`);
    return EXIT.OK;
  },
};
