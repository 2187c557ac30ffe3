/**
 * What apps asked the model to know (`ui/update-model-context`), per conversation: each app's
 * latest update replaces its previous one, and the chat adds them to the conversation's next turns,
 * labelled as coming from the app — text the server's app wrote, never the person's words.
 * Kept in memory only: it is the app's live state, not part of the conversation's history.
 */

export interface AppModelContext {
  readonly server: string;
  /** Which app in the conversation (its tool call, or its instance). */
  readonly key: string;
  readonly text: string;
  readonly updatedAt: number;
}

/** Per app; a long context is cut (the app can always say less). */
export const MAX_APP_CONTEXT_CHARS = 8000;
/** Apps remembered per conversation; the least recently updated goes first. */
const MAX_APPS_PER_CONVERSATION = 10;
const MAX_CONVERSATIONS = 200;

function blockText(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const b = block as Record<string, unknown>;
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'resource_link' && typeof b.uri === 'string') return `[resource ${b.uri}]`;
  if (typeof b.type === 'string') return `[${b.type} content]`;
  return undefined;
}

/** The update as the model will read it: its text blocks, then its structured content as JSON. */
export function contextText(content: readonly unknown[] | undefined, structuredContent: Record<string, unknown> | undefined): string {
  const parts = (content ?? []).map(blockText).filter((t): t is string => t !== undefined && t !== '');
  if (structuredContent !== undefined) parts.push(JSON.stringify(structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_APP_CONTEXT_CHARS ? `${text.slice(0, MAX_APP_CONTEXT_CHARS - 1)}…` : text;
}

export class AppModelContexts {
  private readonly byConversation = new Map<string, Map<string, AppModelContext>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Replaces the app's previous update; an empty update clears it. */
  set(conversationId: string, server: string, key: string, text: string): void {
    let apps = this.byConversation.get(conversationId);
    if (!apps) {
      apps = new Map();
      this.byConversation.set(conversationId, apps);
      for (const oldest of this.byConversation.keys()) {
        if (this.byConversation.size <= MAX_CONVERSATIONS) break;
        this.byConversation.delete(oldest);
      }
    }
    apps.delete(key);
    if (text === '') return;
    apps.set(key, { server, key, text, updatedAt: this.now() });
    for (const oldest of apps.keys()) {
      if (apps.size <= MAX_APPS_PER_CONVERSATION) break;
      apps.delete(oldest);
    }
  }

  /** The latest update of each app in the conversation, oldest first. */
  get(conversationId: string): readonly AppModelContext[] {
    return [...(this.byConversation.get(conversationId)?.values() ?? [])];
  }
}
