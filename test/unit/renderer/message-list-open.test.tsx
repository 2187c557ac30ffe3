// @vitest-environment happy-dom
/**
 * Opening a long conversation (#32 goal 5: no main-thread task over 50 ms): the list starts at its
 * end, so its first render mounts the last rows, by their estimated heights. Before, it rendered
 * the first screenful, then scrolled to the end and mounted other rows in the scroll event — a
 * second long task each time a long conversation opened.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Conversation } from '../../../preload/contract';
import { MessageList } from '../../../renderer/src/features/chat/MessageList';
import { rowsOf } from '../../../renderer/src/features/chat/conversation-model';
import { empty, layOutMessageLists } from './chat-fixtures';

layOutMessageLists();
afterEach(cleanup);

const TURNS = 500;
const conversation: Conversation = {
  ...empty('c1', 'Long'),
  turnCount: TURNS,
  turns: Array.from({ length: TURNS }, (_, i) => ({
    id: `t${i}`,
    status: 'completed' as const,
    startedAt: i,
    items: [
      { kind: 'user' as const, text: `question ${i}` },
      { kind: 'assistant' as const, text: `answer ${i}` },
    ],
  })),
};

it('a long conversation opens at its end: no row from its start is ever put in the page', async () => {
  const rows = rowsOf(conversation);
  const mounted = new Set<number>();
  const watcher = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        const at = node instanceof HTMLElement ? node.getAttribute('aria-posinset') : null;
        if (at) mounted.add(Number(at));
      }
  });
  const host = document.createElement('div');
  document.body.append(host);
  watcher.observe(host, { childList: true, subtree: true });
  await act(async () => {
    render(<MessageList rows={rows} progress={new Map()} />, { container: host });
  });
  watcher.disconnect();
  expect(host.querySelector(`[aria-posinset="${rows.length}"]`)).not.toBeNull();
  const earliest = Math.min(...mounted);
  expect(earliest, `rows mounted: ${[...mounted].sort((a, b) => a - b).join(', ')}`).toBeGreaterThan(rows.length - 40);
});
