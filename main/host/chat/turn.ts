import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { ChatMissingServer, ChatToolCall, HarborErrorData, TurnStatus } from '../../../preload/contract';
import { HarborError } from '../errors';
import { toolUiResourceUri } from '../apps/ui-meta';
import { toolErrorOutput } from '../tools/results';
import type { ChatHost } from './chat-host';
import { streamModelStep, type ModelToolCall } from './model-step';
import type { ResolvedModel } from './providers';
import type { ChatSettings } from './settings';
import type { ConversationStore } from './conversations/store';
import { runToolCall, type CallProgress } from './tool-runner';
import type { TurnStop } from './tool-run';
import type { TurnTools } from './turn-tools';

/** What a running turn reports as it goes (the CLI prints these; the service makes chat.* events of them). */
export type TurnEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'toolCall'; readonly call: ChatToolCall; readonly progress?: CallProgress }
  /** The arguments of a call to a tool with an app, as the model writes them (partial JSON): its app may show them early. */
  | { readonly type: 'toolInput'; readonly toolCallId: string; readonly server: string; readonly tool: string; readonly text: string; readonly resourceUri: string }
  /** Servers the conversation used that this turn cannot offer, and why (before the model is asked). */
  | { readonly type: 'missing'; readonly servers: readonly ChatMissingServer[] };

export interface TurnOutcome {
  readonly conversationId: string;
  readonly turnId: string;
  readonly status: Exclude<TurnStatus, 'running'>;
  /** The model's text of its last step (what it answered). */
  readonly text: string;
  /** Harbor's own note on how the turn ended, when it did not simply complete. */
  readonly note?: string;
  readonly error?: HarborErrorData;
  readonly steps: number;
}

export interface TurnInput {
  readonly conversationId: string;
  readonly turnId: string;
  readonly model: ResolvedModel;
  readonly system: string;
  readonly tools: TurnTools;
  /** The conversation so far, ending with the person's new message. */
  readonly messages: readonly ModelMessage[];
  readonly settings: ChatSettings;
  readonly approveOnce: boolean;
  readonly signal: AbortSignal;
  readonly host: ChatHost;
  readonly store: ConversationStore;
  readonly emit: (event: TurnEvent) => void;
  readonly now: () => number;
}

const STOPPED_NOTE = 'Stopped by the person.';

/**
 * The agent loop of one turn: stream the model → run each tool call it makes (route, consent,
 * call with the turn's signal) → feed the results back → repeat, until the model answers without
 * calling a tool or `maxSteps` model calls have been made. Each step is stored as it completes.
 * Only a model/provider failure fails the turn; tool failures go back to the model as tool errors.
 */
export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const { conversationId, turnId, settings, store } = input;
  const messages: ModelMessage[] = [...input.messages];
  const outcome = (status: TurnOutcome['status'], text: string, steps: number, extra: { note?: string; error?: HarborErrorData } = {}): TurnOutcome => ({
    conversationId,
    turnId,
    status,
    text,
    steps,
    ...extra,
  });

  for (let step = 1; step <= settings.maxSteps; step += 1) {
    let result;
    try {
      result = await streamModelStep({
        model: input.model.model,
        system: input.system,
        messages,
        tools: input.tools.offered,
        signal: input.signal,
        maxRetries: input.model.maxRetries,
        onText: (delta) => input.emit({ type: 'text', delta }),
        onToolInput: ({ toolCallId, toolName, text }) => {
          const target = input.tools.index.resolve(toolName);
          const resourceUri = target ? toolUiResourceUri(target.tool) : undefined;
          if (target && resourceUri) input.emit({ type: 'toolInput', toolCallId, server: target.server, tool: target.tool.name, text, resourceUri });
        },
      });
    } catch (error) {
      const failure = error instanceof HarborError ? error : new HarborError('MODEL_ERROR', String(error));
      return outcome('error', '', step - 1, { note: failure.message, error: failure.toData() });
    }

    if (result.aborted) {
      // What the person saw streamed is kept; a half-streamed tool call is not.
      if (result.text) store.appendStep(conversationId, turnId, step, [{ role: 'assistant', content: [{ type: 'text', text: result.text }] }]);
      return outcome('stopped', result.text, step, { note: STOPPED_NOTE });
    }

    const assistant: AssistantModelMessage = {
      role: 'assistant',
      content: [
        ...(result.text ? [{ type: 'text' as const, text: result.text }] : []),
        ...result.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input ?? {} })),
      ],
    };
    if (result.toolCalls.length === 0) {
      store.appendStep(conversationId, turnId, step, [assistant]);
      return outcome('completed', result.text, step);
    }

    const { toolMessage, stop } = await runCalls(result.toolCalls, step, input);
    store.appendStep(conversationId, turnId, step, [assistant, toolMessage]);
    messages.push(assistant, toolMessage);
    if (stop) {
      return outcome(stop.status, result.text, step, {
        note: stop.status === 'stopped' ? STOPPED_NOTE : stop.error.message,
        ...(stop.status !== 'stopped' ? { error: stop.error.toData() } : {}),
      });
    }
    if (step === settings.maxSteps) {
      return outcome('maxSteps', result.text, step, {
        note: `Stopped after ${settings.maxSteps} model steps (the step limit). Send another message to let the model continue, or raise "chat": {"maxSteps": N} in the registry.`,
      });
    }
  }
  // maxSteps ≥ 1 always returns inside the loop.
  return outcome('maxSteps', '', settings.maxSteps);
}

/** Runs a step's tool calls one after another; after a Stop the rest are answered without running. */
async function runCalls(
  calls: readonly ModelToolCall[],
  step: number,
  input: TurnInput,
): Promise<{ toolMessage: ToolModelMessage; stop?: TurnStop }> {
  const content: ToolModelMessage['content'] = [];
  let stop: TurnStop | undefined;
  for (const call of calls) {
    let output;
    if (stop) {
      output = toolErrorOutput(stop.status === 'stopped' ? 'Not run: the person stopped the turn.' : stop.status === 'consentRequired' ? 'Not run: the turn stopped for consent.' : 'Not run: the turn stopped for a sign-in.');
    } else {
      const ran = await runToolCall(call, {
        conversationId: input.conversationId,
        turnId: input.turnId,
        step,
        host: input.host,
        tools: input.tools,
        store: input.store,
        approveOnce: input.approveOnce,
        signal: input.signal,
        resultCapBytes: input.settings.resultCapBytes,
        imageParts: input.model.imagesInToolResults,
        emit: (c, progress) => input.emit({ type: 'toolCall', call: c, ...(progress ? { progress } : {}) }),
        now: input.now,
      });
      output = ran.output;
      if (ran.stopTurn) stop = ran.stopTurn;
    }
    content.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output });
  }
  return { toolMessage: { role: 'tool', content }, ...(stop ? { stop } : {}) };
}
