import type { ChatMissingServer } from '../../../preload/contract';
import type { HarborError } from '../errors';
import type { ConversationStore } from './conversations/store';

/** How many conversations' used servers are remembered (the oldest forgotten first). */
const MAX_CONVERSATIONS = 200;

/**
 * Which servers each conversation has used — offered tools in one of its turns, or had a tool
 * called — so a turn can say which of them is missing and why (#28), instead of the model silently
 * getting fewer tools. A conversation first seen in this process starts from the servers its
 * stored tool calls went to.
 */
export class UsedServers {
  private readonly byConversation = new Map<string, Set<string>>();

  constructor(private readonly store: ConversationStore) {}

  /**
   * The servers this conversation used that are not ready for this turn, with why; then the
   * servers ready now join what it used.
   */
  missing(conversationId: string, ready: readonly string[], unavailable: readonly { readonly server: string; readonly error: HarborError }[]): ChatMissingServer[] {
    const used = this.usedBy(conversationId);
    const missing = unavailable.filter((u) => used.has(u.server)).map((u) => ({ server: u.server, reason: reasonOf(u.error) }));
    for (const name of ready) used.add(name);
    return missing;
  }

  private usedBy(conversationId: string): Set<string> {
    let used = this.byConversation.get(conversationId);
    if (used) {
      // Most recently used last, so the oldest is the first to go.
      this.byConversation.delete(conversationId);
    } else {
      used = new Set(this.calledServers(conversationId));
    }
    this.byConversation.set(conversationId, used);
    if (this.byConversation.size > MAX_CONVERSATIONS) this.byConversation.delete(this.byConversation.keys().next().value!);
    return used;
  }

  private calledServers(conversationId: string): string[] {
    try {
      return this.store
        .conversation(conversationId)
        .turns.flatMap((turn) => turn.items.flatMap((item) => (item.kind === 'toolCall' && item.call.server ? [item.call.server] : [])));
    } catch {
      // A conversation that cannot be read back has no earlier calls to go by: only what this process saw counts.
      return [];
    }
  }
}

/** "exited with code 1 before it was ready (it said: "fatal: …") — see its log". */
function reasonOf(error: HarborError): string {
  const said = error.detail
    ?.split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
  const quoted = said && !error.message.includes(said) ? ` (it said: "${said.length > 200 ? `${said.slice(0, 199)}…` : said}")` : '';
  return `${error.message.replace(/\.$/, '')}${quoted} — see its log`;
}
