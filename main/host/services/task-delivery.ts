import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatToolResult } from '../../../preload/contract';
import type { ConversationStore } from '../chat/conversations/store';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { TaskRecord } from '../tasks/rows';
import type { TaskService } from '../tasks/service';
import { DEFAULT_RESULT_CAP_BYTES, translateToolResult } from '../tools/results';

/** The text a model reads of a result (images and other binary content are described, not sent). */
function modelTextOf(result: CallToolResult): string {
  const output = translateToolResult(result, { imageParts: false, capBytes: DEFAULT_RESULT_CAP_BYTES }).output;
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'content') return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return 'value' in output ? JSON.stringify(output.value) : '';
}

/**
 * A chat tool call's task that ends with nobody waiting — its turn ended first because Harbor
 * stopped, and the task was followed again at the next start — brings its outcome into the
 * conversation: the call's card gets the result, and the model reads it in the next turn.
 */
export class TaskDelivery implements Disposable {
  private readonly subscription: Disposable;

  constructor(
    private readonly tasks: TaskService,
    private readonly conversations: ConversationStore,
  ) {
    trackDisposable(this);
    this.subscription = tasks.onUnclaimedEnd((record) => this.deliver(record));
  }

  private deliver(record: TaskRecord): void {
    const origin = record.origin;
    if (!origin?.toolCallId || record.status === 'cancelled') return;
    const call = `${record.server}/${record.tool}`;
    const result = record.result as CallToolResult | undefined;
    const chatResult: ChatToolResult | undefined = result
      ? { content: result.content ?? [], ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true }
      : undefined;
    const failure = record.error ? `the server reports it failed: ${record.error.message} (code ${record.error.code})` : undefined;
    const modelText = result
      ? `[Harbor] The tool call ${call} (task ${record.taskId}) was still running when the earlier turn ended. It has now finished; its result:\n${modelTextOf(result)}`
      : `[Harbor] The tool call ${call} (task ${record.taskId}) was still running when the earlier turn ended; ${failure ?? 'it ended without a result'}.`;
    try {
      const delivered = this.conversations.deliverTaskOutcome({
        conversationId: origin.conversationId,
        toolCallId: origin.toolCallId,
        taskId: record.taskId,
        ...(chatResult ? { result: chatResult } : { error: { code: 'PROTOCOL_ERROR', message: failure ?? 'The task ended without a result.' } }),
        modelText,
        note: result ? `The task of ${call} finished after this turn ended; its result is on the call above.` : `The task of ${call} ended after this turn: ${failure ?? 'no result'}.`,
      });
      if (delivered) this.tasks.markDelivered(record.server, record.taskId);
    } catch {
      // The conversations database is gone (shutdown) or damaged: the result stays in the Tasks panel.
    }
  }

  dispose(): void {
    markAsDisposed(this);
    void this.subscription.dispose();
  }
}
