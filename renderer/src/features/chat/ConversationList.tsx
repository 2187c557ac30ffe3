import type { ConversationSummary } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';

interface Props {
  readonly list: LoadState<readonly ConversationSummary[]>;
  readonly openId: string | undefined;
  readonly onOpen: (id: string) => void;
  readonly onNew: () => void;
  readonly onRetry: () => void;
}

function when(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  return date.toDateString() === today.toDateString()
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString([], { month: 'short', day: 'numeric' });
}

/** Conversations, newest first. Opening one loads it; "New conversation" starts an empty one. */
export function ConversationList({ list, openId, onOpen, onNew, onRetry }: Props) {
  return (
    <aside className="conv-list" aria-label="Conversations">
      <button type="button" className="button button--primary conv-list__new" onClick={onNew} aria-pressed={openId === undefined}>
        New conversation
      </button>
      {list.status === 'loading' ? <Loading label="Loading conversations…" /> : null}
      {list.status === 'error' ? <ErrorMessage error={list.error} onRetry={onRetry} /> : null}
      {list.status === 'ready' && list.value.length === 0 ? <p className="muted conv-list__empty">No conversations yet.</p> : null}
      {list.status === 'ready' && list.value.length > 0 ? (
        <ul className="conv-list__items" aria-label="Conversation history">
          {list.value.map((c) => (
            <li key={c.id}>
              <button type="button" className="conv-list__item" aria-current={c.id === openId ? 'true' : undefined} onClick={() => onOpen(c.id)}>
                <span className="conv-list__title">{c.title}</span>
                <span className="conv-list__meta">
                  {when(c.updatedAt)}
                  {c.lastStatus === 'running' ? ' · answering' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </aside>
  );
}
