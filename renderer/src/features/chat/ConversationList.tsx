import { SquarePen } from 'lucide-react';
import type { ConversationSummary } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { VirtualList } from '../../ui/VirtualList';
import { formatHourMinute, formatMonthDay, type DateStyle } from '../../lib/time-format';
import { useDateFormatters } from '../../lib/use-date-formatters';

interface Props {
  readonly id: string;
  readonly list: LoadState<readonly ConversationSummary[]>;
  readonly openId: string | undefined;
  readonly onOpen: (id: string) => void;
  readonly onNew: () => void;
  readonly onRetry: () => void;
  /** As a drawer over the chat (a narrow window): a dialog-like panel. */
  readonly drawer?: boolean;
}

/** The formatters `when` uses. */
const TIMES: readonly DateStyle[] = ['hourMinute', 'monthDay'];

function when(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  return date.toDateString() === today.toDateString()
    ? formatHourMinute(date)
    : formatMonthDay(date);
}

/** Conversations, newest first (only those in view are rendered). Opening one loads it; "New conversation" starts an empty one. */
export function ConversationList({ id, list, openId, onOpen, onNew, onRetry, drawer = false }: Props) {
  // A fresh page's first date formatter is built a task after the list's first render, not in it.
  const timesReady = useDateFormatters(TIMES);
  return (
    <aside id={id} className={`conv-list${drawer ? ' conv-list--drawer' : ''}`} aria-label="Conversations">
      <button type="button" className="button conv-list__new" onClick={onNew} aria-pressed={openId === undefined}>
        <SquarePen aria-hidden="true" size={15} /> New conversation
      </button>
      {list.status === 'loading' ? <Loading label="Loading conversations…" /> : null}
      {list.status === 'error' ? <ErrorMessage error={list.error} onRetry={onRetry} /> : null}
      {list.status === 'ready' && list.value.length === 0 ? <p className="muted conv-list__empty">No conversations yet.</p> : null}
      {list.status === 'ready' && list.value.length > 0 ? (
        <VirtualList
          items={list.value}
          label="Conversation history"
          className="conv-list__items"
          estimateSize={48}
          getKey={(c) => c.id}
          renderItem={(c) => (
            <button type="button" className="conv-list__item" aria-current={c.id === openId ? 'true' : undefined} onClick={() => onOpen(c.id)}>
              <span className="conv-list__title">{c.title}</span>
              <span className="conv-list__meta">
                {timesReady ? when(c.updatedAt) : ''}
                {c.lastStatus === 'running' ? ' · answering' : ''}
              </span>
            </button>
          )}
        />
      ) : null}
    </aside>
  );
}
