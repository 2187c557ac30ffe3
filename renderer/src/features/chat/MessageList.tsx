import './messages.css';
import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { CallProgress, Row } from './conversation-model';
import { MessageRow } from './MessageRow';

interface Props {
  readonly rows: readonly Row[];
  readonly progress: ReadonlyMap<string, CallProgress>;
  readonly onAttach?: (server: string, uri: string, title: string) => void;
  /** Stops the running turn (a script's card offers it). */
  readonly onStop?: () => void;
  /** Size of the scroll area before it is measured (tests without layout). */
  readonly initialRect?: Rect;
}

/** A first guess per kind of row; the real height is measured once a row is rendered. */
function estimate(row: Row | undefined): number {
  if (!row || row.kind !== 'item') return 48;
  switch (row.item.kind) {
    case 'toolCall':
      return 140;
    case 'note':
      return 40;
    case 'missing':
      return 40 * row.item.servers.length;
    default:
      return Math.min(600, 56 + Math.ceil(row.item.text.length / 90) * 22);
  }
}

/** Where the list's end is in view, by the rows' estimated heights. */
function endOffset(rows: readonly Row[], viewport: number): number {
  let total = 0;
  for (const row of rows) total += estimate(row);
  return Math.max(0, total - viewport);
}

/** A conversation stays near the bottom while new text arrives, unless the person scrolled up to read. */
const STICK_PX = 80;

/**
 * The conversation's rows, virtualized: only what is on screen (plus a few) is in the DOM, each
 * row measured as it renders, so a thousand-message conversation scrolls as lightly as a short one.
 */
export function MessageList({ rows, progress, onAttach, onStop, initialRect }: Props) {
  // Not deferred (useDeferredValue): a row's tool card hands its call's arguments to an MCP App when
  // the app starts, and a deferred, older row gave the app the arguments before they were complete.
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  // The same function until the rows change: a new one makes the virtualizer recompute every row's position on each scroll.
  const itemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimate(rows[index]),
    getItemKey: itemKey,
    overscan: 6,
    // A conversation opens at its end: the first render lays out the last rows (by their estimated
    // heights), not the first screenful only to replace it when the view scrolls to the end — that
    // second render, mounting other rows, was a long task of its own when a long conversation opened.
    initialOffset: () => endOffset(rows, scrollRef.current?.clientHeight ?? initialRect?.height ?? window.innerHeight),
    ...(initialRect ? { initialRect } : {}),
  });
  const total = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    if (stick.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows, total, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    // Only the person scrolling up lets go of the bottom: a row above that grows (an app, an image)
    // moves the scroll position down to keep the view still, and must not.
    const movedUp = el.scrollTop < lastTop.current;
    lastTop.current = el.scrollTop;
    if (bottom || movedUp) stick.current = bottom;
    setAtBottom(stick.current || bottom);
  };

  return (
    <div className="messages" ref={scrollRef} onScroll={onScroll} tabIndex={0} role="region" aria-label="Messages">
      <div role="list" aria-label="Conversation" className="messages__inner" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const row = rows[virtual.index]!;
          const call = row.kind === 'item' && row.item.kind === 'toolCall' ? row.item.call : undefined;
          return (
            <div
              key={virtual.key}
              role="listitem"
              aria-posinset={virtual.index + 1}
              aria-setsize={rows.length}
              data-index={virtual.index}
              ref={virtualizer.measureElement}
              className="messages__row"
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              <MessageRow row={row} progress={call ? progress.get(call.id) : undefined} onAttach={onAttach} onStop={onStop} />
            </div>
          );
        })}
      </div>
      {!atBottom ? (
        <button
          type="button"
          className="button button--small messages__latest"
          onClick={() => {
            stick.current = true;
            setAtBottom(true);
            virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
          }}
        >
          Jump to latest
        </button>
      ) : null}
    </div>
  );
}
