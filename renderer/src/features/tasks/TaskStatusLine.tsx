import type { ChatToolCall } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { STATUS_LABEL } from './task-list';

/** A tool call the server runs as a task: the task's status and the server's message about it, live. */
export function TaskStatusLine({ task }: { readonly task: NonNullable<ChatToolCall['task']> }) {
  return (
    <p className="task-status-line">
      <span className="task-status-line__label">Task {STATUS_LABEL[task.status].toLowerCase()}</span>
      {task.statusMessage ? <span className="task-status-line__message">: {visibleText(task.statusMessage)}</span> : null}
    </p>
  );
}
