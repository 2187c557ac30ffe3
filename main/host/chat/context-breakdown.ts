import type { ModelMessage } from 'ai';
import type { ChatContext } from '../../../preload/contract';
import { META_TOOLS } from '../tools/meta-tools';
import { toolTokens, type TokenCounter } from '../tools/tokens';
import { buildSystemPrompt } from './system-prompt';

/** How a turn's budget is spent, in o200k_base tokens (the contract's `ChatContext.breakdown`). */
export type ContextBreakdown = NonNullable<ChatContext['breakdown']>;

export interface BreakdownInput {
  /** The ready servers: their tool counts and `instructions`. */
  readonly servers: readonly { readonly name: string; readonly tools: number; readonly instructions?: string }[];
  /** Every offered tool definition's tokens, as offering them all would send. */
  readonly toolTokens: number;
  /** Whether a new turn gets search_tools/call_tool instead of every definition. */
  readonly search: boolean;
  /** The skills index plus load_skill. */
  readonly skillTokens: number;
  /** The conversation's messages as the model is sent them (none for a new conversation). */
  readonly history: readonly ModelMessage[];
}

/** A message's tokens: its text, a tool call's name and arguments, a tool result's output. Images and files count 0 (their cost is the provider's). */
export function messageTokens(message: ModelMessage, count: TokenCounter): number {
  if (typeof message.content === 'string') return count(message.content);
  let sum = 0;
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') sum += count(part.text);
    else if (part.type === 'tool-call') sum += count(`${part.toolName} ${JSON.stringify(part.input ?? {})}`);
    else if (part.type === 'tool-result') sum += count(JSON.stringify(part.output ?? ''));
  }
  return sum;
}

/**
 * The meter's split of a turn: instructions (Harbor's system prompt with the servers'
 * `instructions`), tools (every definition, or the two search tools when tool search takes over),
 * skills (their index and load_skill) and history (the conversation so far).
 */
export function contextBreakdown(input: BreakdownInput, count: TokenCounter): ContextBreakdown {
  const system = buildSystemPrompt({ servers: input.servers, unavailable: [], toolSearch: input.search });
  const tools = input.search ? META_TOOLS.reduce((sum, tool) => sum + toolTokens(count, tool), 0) : input.toolTokens;
  return {
    instructions: count(system),
    tools,
    skills: input.skillTokens,
    history: input.history.reduce((sum, message) => sum + messageTokens(message, count), 0),
  };
}
