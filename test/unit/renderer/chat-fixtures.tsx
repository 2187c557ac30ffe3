/**
 * What the Chat page's component tests share: a conversation, a tool call, the context meter's
 * numbers, the Settings answer, the Host's usual answers, and the page rendered over a transport.
 */
import { render } from '@testing-library/react';
import { afterAll, beforeAll } from 'vitest';
import type { ChatContext, ChatToolCall, Conversation, ConversationSummary, SettingsData } from '../../../preload/contract';
import { ChatPage } from '../../../renderer/src/features/chat/ChatPage';
import type { ContractTransport, Handlers } from '../../helpers/contract-transport';
import { layoutMessageList } from './dom-helpers';
import { WithHost } from './with-host';

export const empty = (id = 'c1', title = 'New conversation'): Conversation => ({ id, title, createdAt: 1, updatedAt: 1, turnCount: 0, turns: [] });

export const call = (extra: Partial<ChatToolCall> = {}): ChatToolCall => ({
  id: 'call-1',
  name: 'feature__echo',
  server: 'feature',
  tool: 'echo',
  arguments: { text: 'hi' },
  status: 'pending',
  startedAt: 1,
  ...extra,
});

export const context: ChatContext = {
  contextWindow: 128_000,
  toolTokens: 1_234,
  instructionTokens: 12,
  toolCount: 9,
  searchThresholdTokens: 6_400,
  toolSearch: 'auto',
  mode: 'direct',
  servers: [{ name: 'feature', tools: 9, toolTokens: 1_234, instructionTokens: 12 }],
  notConnected: ['notes'],
};

/** The Settings answer with this model (and the defaults the Host reports). */
export const settings = (model?: SettingsData['model']): SettingsData => ({
  ...(model ? { model } : {}),
  chat: {},
  defaults: { maxSteps: 25, resultCapBytes: 100_000, toolSearch: 'auto', toolSearchThreshold: 0.05, contextWindow: 128_000, requestTimeoutMs: 60_000 },
});

export function baseHandlers(extra: Handlers = {}): Handlers {
  return {
    'chat.status': () => ({ configured: true, model: { provider: 'openai-compatible', model: 'scripted' }, models: ['scripted', 'scripted-large'] }),
    'chat.context': () => context,
    'conversations.list': () => [] as ConversationSummary[],
    ...extra,
  };
}

export function renderPage(host: ContractTransport) {
  return render(
    <WithHost transport={host}>
      <ChatPage />
    </WithHost>,
  );
}

/** The message list is virtualized: for this file's tests happy-dom is given the sizes a browser would lay out. */
export function layOutMessageLists(): void {
  let undo: () => void = () => undefined;
  beforeAll(() => {
    undo = layoutMessageList();
  });
  afterAll(() => undo());
}
