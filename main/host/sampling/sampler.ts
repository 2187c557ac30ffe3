import { ProtocolError, ProtocolErrorCode, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/client';
import type { ElicitationOrigin, SamplingExchange, SamplingRequestData } from '../../../preload/contract';
import { createLanguageModel, type ResolvedModel, type SecretResolver } from '../chat/providers';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { ModelConfig } from '../registry/schema';
import { callSamplingModel } from './model-call';
import { chooseModel, modelLabel } from './model-choice';
import { SamplingRateLimit } from './rate-limit';
import { refuseToolUse, showMessages, toModelMessages, withEditedTexts } from './sampling-messages';
import { samplingReview, type ReviewDecision, type SamplingReview } from './sampling-review';

/** What the registry says about one server's sampling. */
export interface SamplingSettings {
  readonly policy: 'ask' | 'allow' | 'deny';
  /** The models it may use, preferred first (see model-choice.ts). */
  readonly candidates: readonly ModelConfig[];
  readonly perMinute: number;
}

/** The request of Harbor's a sampling request came in, when that can be told. */
export interface SamplingOrigin {
  readonly signal: AbortSignal;
  readonly origin?: ElicitationOrigin;
  /** "calling tool trigger-sampling-request" */
  readonly during?: string;
}

export interface SamplerOptions {
  readonly settings: (server: string) => SamplingSettings;
  readonly events: HostEvents;
  readonly resolveSecret?: SecretResolver;
  /** Whether a person can review requests (the app); the CLI cannot, and declines unless approved for the run. */
  readonly interactive: boolean;
  readonly reviewTimeoutMs?: number;
  readonly now?: () => number;
  /** Builds the model for a config (default: the chat's providers). */
  readonly createModel?: (config: ModelConfig) => Promise<ResolvedModel>;
}

/** The error code the specification's example uses for a request the user rejected. */
const USER_REJECTED = -1;

type SamplingParams = CreateMessageRequest['params'];

/**
 * Answers a server's `sampling/createMessage` (a legacy request, or a modern input request):
 * the server's policy ("ask", "allow", "deny"), its rate limit, the model its hints pick, the
 * person's review of the request and of the answer where the policy says ask, and one
 * `sampling.exchange` event for the Activity view however it ends. A refusal reaches the server
 * as an error, never as a made-up answer.
 */
export class Sampler implements Disposable {
  private readonly review: SamplingReview;
  private readonly limit: SamplingRateLimit;
  private readonly now: () => number;
  private approvedForRun = false;

  constructor(private readonly options: SamplerOptions) {
    trackDisposable(this);
    this.now = options.now ?? Date.now;
    this.review = samplingReview(options.events, options.reviewTimeoutMs, this.now);
    this.limit = new SamplingRateLimit(this.now);
  }

  /** The CLI's --allow-sampling: every "ask" of this run is approved without a review. */
  approveForThisRun(): void {
    this.approvedForRun = true;
  }

  get reviews(): SamplingReview {
    return this.review;
  }

  async sample(server: string, params: SamplingParams, context: SamplingOrigin): Promise<CreateMessageResult> {
    refuseToolUse(params);
    const settings = this.options.settings(server);
    const exchange = { server, maxTokens: params.maxTokens, ...(context.during ? { during: context.during } : {}) };
    const refuse = (outcome: SamplingExchange['outcome'], reason: string, code = USER_REJECTED, model?: string): never => {
      this.record({ ...exchange, outcome, reason, ...(model ? { model } : {}) });
      throw new ProtocolError(code, reason);
    };
    if (settings.policy === 'deny') refuse('denied', `Sampling is turned off for "${server}" in Harbor.`);
    const ask = settings.policy === 'ask' && !this.approvedForRun;
    if (ask && !this.options.interactive) {
      refuse('declined', `Harbor declined the sampling request of "${server}": nobody can review it here (run the CLI with --allow-sampling to approve it).`);
    }
    if (!this.limit.take(server, settings.perMinute)) {
      const wait = Math.ceil(this.limit.retryAfterMs(server, settings.perMinute) / 1000);
      refuse('rateLimited', `"${server}" asked the model more than ${settings.perMinute} times in a minute; try again in ${wait} s.`);
    }
    const config = chooseModel(settings.candidates, params.modelPreferences);
    if (!config) refuse('failed', 'No model is configured for sampling: set "model" in Harbor\'s registry (or "samplingModel" for this server).', ProtocolErrorCode.InternalError);
    const label = modelLabel(config!);

    let request = params;
    if (ask) {
      const decision = await this.review.ask(this.stage(server, 'request', params, label, context), context.signal);
      if (decision.action === 'deny') refuse('denied', 'The person denied the sampling request.', USER_REJECTED, label);
      request = edited(params, decision);
    }
    let answer: { text: string; stopReason: string };
    try {
      const model = await (this.options.createModel ?? ((c: ModelConfig) => createLanguageModel(c, this.options.resolveSecret)))(config!);
      answer = await callSamplingModel({
        model: model.model,
        maxRetries: model.maxRetries,
        ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
        messages: toModelMessages(request.messages),
        maxTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences ? { stopSequences: request.stopSequences } : {}),
        signal: context.signal,
      });
    } catch (error) {
      return refuse('failed', error instanceof Error ? error.message : String(error), ProtocolErrorCode.InternalError, label);
    }
    if (ask) {
      const decision = await this.review.ask({ ...this.stage(server, 'response', request, label, context), response: { ...answer, model: label } }, context.signal);
      if (decision.action === 'deny') refuse('denied', "The person did not send the model's answer back.", USER_REJECTED, label);
      if (decision.text !== undefined) answer = { ...answer, text: decision.text };
    }
    this.record({ ...exchange, maxTokens: request.maxTokens, outcome: 'sent', model: label, stopReason: answer.stopReason, answerChars: answer.text.length });
    return { role: 'assistant', content: { type: 'text', text: answer.text }, model: label, stopReason: answer.stopReason };
  }

  private stage(server: string, stage: SamplingRequestData['stage'], params: SamplingParams, model: string, context: SamplingOrigin): Omit<SamplingRequestData, 'id' | 'deadline'> {
    const origin = context.origin;
    const hints = (params.modelPreferences?.hints ?? []).flatMap((h) => (typeof h?.name === 'string' ? [h.name] : []));
    return {
      server,
      stage,
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      messages: showMessages(params.messages),
      maxTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: [...params.stopSequences] } : {}),
      ...(params.includeContext ? { includeContext: params.includeContext } : {}),
      modelHints: hints,
      model,
      ...(context.during ? { during: context.during } : {}),
      ...(origin ? { conversationId: origin.conversationId, turnId: origin.turnId, ...(origin.toolCallId ? { toolCallId: origin.toolCallId } : {}) } : {}),
    };
  }

  private record(exchange: Omit<SamplingExchange, 'at'>): void {
    this.options.events.emit('sampling.exchange', { ...exchange, at: this.now() });
  }

  dispose(): void {
    markAsDisposed(this);
    this.review.dispose();
  }
}

/** The request as the person approved it: their system prompt, message texts and (lower) maxTokens. */
function edited(params: SamplingParams, decision: ReviewDecision): SamplingParams {
  return {
    ...params,
    ...(decision.systemPrompt !== undefined ? { systemPrompt: decision.systemPrompt } : {}),
    ...(decision.maxTokens !== undefined ? { maxTokens: decision.maxTokens } : {}),
    messages: withEditedTexts(params.messages, decision.messages),
  };
}
