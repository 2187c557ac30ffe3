import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { HarborError } from '../errors';
import type { JsonObjectSchema } from '../tools/schema';

/** A tool definition as offered to the model. */
export interface OfferedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
}

/** A tool call the model made. `invalid`: the SDK could not match it to an offered tool or parse its input. */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly invalid: boolean;
  readonly error?: unknown;
}

export interface StepResult {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  /** The turn's signal fired while the model was streaming. */
  readonly aborted: boolean;
}

export interface StepInput {
  readonly model: LanguageModel;
  readonly system: string;
  readonly messages: ModelMessage[];
  readonly tools: readonly OfferedTool[];
  readonly signal: AbortSignal;
  readonly maxRetries: number;
  readonly onText: (delta: string) => void;
  /** A tool call's arguments so far, as the model writes them (the text is partial JSON). */
  readonly onToolInput?: (partial: { readonly toolCallId: string; readonly toolName: string; readonly text: string }) => void;
}

/** A provider failure, said plainly (status, message), without a stack. */
export function modelFailure(error: unknown): HarborError {
  const e = error as { message?: string; statusCode?: number; url?: string; cause?: unknown };
  const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
  const status = typeof e.statusCode === 'number' ? ` (HTTP ${e.statusCode})` : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  return new HarborError('MODEL_ERROR', `The model failed: ${message}${status}${cause}. Check that the provider is reachable and the model's settings (Settings › Model; "model" in the registry file) are right.`);
}

/**
 * One model call, streamed. The tools are offered without `execute`: the SDK only reports the
 * calls; Harbor routes and runs them itself (consent, progress, cancellation, persistence).
 */
export async function streamModelStep(input: StepInput): Promise<StepResult> {
  const { streamText, tool, jsonSchema } = await import('ai');
  const tools: ToolSet = {};
  for (const offered of input.tools) {
    tools[offered.name] = tool({ description: offered.description, inputSchema: jsonSchema(offered.inputSchema as Parameters<typeof jsonSchema>[0]) });
  }
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  const writing = new Map<string, { toolName: string; text: string }>();
  let failure: unknown;
  let failed = false;
  const result = streamText({
    model: input.model,
    instructions: input.system,
    messages: input.messages,
    ...(input.tools.length > 0 ? { tools, toolOrder: input.tools.map((t) => t.name) } : {}),
    abortSignal: input.signal,
    maxRetries: input.maxRetries,
    // Errors arrive as stream parts below; the SDK's default handler would print them.
    onError: () => undefined,
  });
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          input.onText(part.text);
          break;
        case 'tool-input-start':
          writing.set(part.id, { toolName: part.toolName, text: '' });
          break;
        case 'tool-input-delta': {
          const call = writing.get(part.id);
          if (!call || !input.onToolInput) break;
          call.text += part.delta;
          input.onToolInput({ toolCallId: part.id, toolName: call.toolName, text: call.text });
          break;
        }
        case 'tool-call': {
          const call = part as { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown };
          toolCalls.push({
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            input: call.input,
            invalid: call.invalid === true,
            ...(call.error !== undefined ? { error: call.error } : {}),
          });
          break;
        }
        case 'error':
          failed = true;
          failure = part.error;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (!input.signal.aborted) throw modelFailure(error);
  }
  if (input.signal.aborted) return { text, toolCalls: [], aborted: true };
  if (failed) throw modelFailure(failure);
  return { text, toolCalls, aborted: false };
}
