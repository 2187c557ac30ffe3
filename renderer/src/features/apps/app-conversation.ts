import { createContext, useContext } from 'react';
import type { AppConversation } from './app-session';

/**
 * The conversation the apps on screen belong to: where an app's approved message goes, and the
 * conversation its tool calls ask consent for. The Chat page provides it; elsewhere (the Tools
 * view) there is none, and apps get no messages or model context.
 */
export const AppConversationContext = createContext<AppConversation | undefined>(undefined);

export function useAppConversation(): AppConversation | undefined {
  return useContext(AppConversationContext);
}

/** Arguments the model is still writing, by tool call id: a chat card's app shows them early. */
export const PartialInputsContext = createContext<ReadonlyMap<string, Record<string, unknown>>>(new Map());

export function usePartialInput(toolCallId: string): Record<string, unknown> | undefined {
  return useContext(PartialInputsContext).get(toolCallId);
}
