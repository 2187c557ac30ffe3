import type { LanguageModel, ModelMessage } from 'ai';
import { modelFailure } from '../chat/model-step';

export interface SamplingModelInput {
  readonly model: LanguageModel;
  readonly maxRetries: number;
  readonly system?: string;
  readonly messages: ModelMessage[];
  /** The server's limit: the model is told to write no more than this. */
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly signal: AbortSignal;
}

export interface SamplingModelOutput {
  readonly text: string;
  /** As MCP names it: "endTurn", "maxTokens", or the provider's own word. */
  readonly stopReason: string;
}

const STOP_REASONS: Readonly<Record<string, string>> = { stop: 'endTurn', length: 'maxTokens', 'content-filter': 'contentFilter' };

/**
 * One model call for a server's sampling request: no tools, the server's `maxTokens` as the
 * output limit, its temperature and stop sequences. Streamed (every provider speaks it) and
 * collected; a provider failure is MODEL_ERROR naming the provider's words.
 */
export async function callSamplingModel(input: SamplingModelInput): Promise<SamplingModelOutput> {
  const { streamText } = await import('ai');
  let failure: unknown;
  const result = streamText({
    model: input.model,
    ...(input.system ? { instructions: input.system } : {}),
    messages: input.messages,
    maxOutputTokens: input.maxTokens,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.stopSequences?.length ? { stopSequences: [...input.stopSequences] } : {}),
    abortSignal: input.signal,
    maxRetries: input.maxRetries,
    onError: ({ error }) => {
      failure = error;
    },
  });
  let text = '';
  try {
    for await (const delta of result.textStream) text += delta;
  } catch (error) {
    throw modelFailure(error);
  }
  if (failure !== undefined) throw modelFailure(failure);
  const finish = await Promise.resolve(result.finishReason).catch(() => 'other'); // the text is complete; only why it stopped is unknown
  return { text, stopReason: STOP_REASONS[finish] ?? finish };
}
