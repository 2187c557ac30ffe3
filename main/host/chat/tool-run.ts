import type { ChatToolCall } from '../../../preload/contract';
import type { HarborError } from '../errors';
import type { ModelToolOutput } from '../tools/results';
import type { ChatHost } from './chat-host';
import type { ConversationStore } from './conversations/store';
import type { TurnTools } from './turn-tools';

/** What one tool call of a turn runs with, and what it gives back to the turn. */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface ToolRunContext {
  readonly conversationId: string;
  readonly turnId: string;
  readonly step: number;
  readonly host: ChatHost;
  readonly tools: TurnTools;
  readonly store: ConversationStore;
  /** `--yes`: the person approved the calls of this turn up front. */
  readonly approveOnce: boolean;
  readonly signal: AbortSignal;
  readonly resultCapBytes: number;
  readonly imageParts: boolean;
  readonly emit: (call: ChatToolCall, progress?: CallProgress) => void;
  readonly now: () => number;
}

/** Why a tool call ended its turn. */
export interface TurnStop {
  readonly status: 'stopped' | 'consentRequired' | 'error';
  readonly error: HarborError;
}

export interface ToolRunOutcome {
  readonly output: ModelToolOutput;
  /** Set when the turn cannot go on: the person stopped it, consent is needed and cannot be asked, or a server needs a new sign-in ('error'). */
  readonly stopTurn?: TurnStop;
}
