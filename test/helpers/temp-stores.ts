import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ConversationStore } from '../../main/host/chat/conversations/store';

/**
 * Conversation stores in a folder of their own for each test: `path(name)` is a file in this
 * test's folder, `keep(store)` disposes the store after the test; then the folder is removed.
 */
export function tempStores(prefix: string) {
  let dir: string | undefined;
  const stores: ConversationStore[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return {
    path: (name = 'conversations.db') => join((dir ??= mkdtempSync(join(tmpdir(), prefix))), name),
    keep: <S extends ConversationStore>(store: S): S => (stores.push(store), store),
    /** Forgets the stores kept so far (the test disposed them itself). */
    forget: () => void stores.splice(0),
  };
}
