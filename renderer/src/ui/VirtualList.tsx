import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import './virtual-list.css';

interface Props<T> {
  readonly items: readonly T[];
  /** Names the list for assistive technology ("Tools of notes"). */
  readonly label: string;
  readonly getKey: (item: T, index: number) => string;
  readonly renderItem: (item: T, index: number) => ReactNode;
  /** A first guess at a row's height in px; rows are measured once shown. */
  readonly estimateSize?: number;
  /** Extra CSS class on the scroll container (its height comes from CSS). */
  readonly className?: string;
  /** Rows rendered beyond the visible ones, so Tab and fast scrolling find them ready. */
  readonly overscan?: number;
  /**
   * A log: start at the end, and stay at the end as rows are added — unless the person scrolled
   * up to read, then leave the view where it is.
   */
  readonly followTail?: boolean;
}

const NO_LAYOUT: Rect = { width: 800, height: 600 };

/** The scroll element's size; where nothing is laid out (a DOM without layout, a hidden tab) a window-sized guess, so rows still render. */
function observeOrAssume(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void): (() => void) | undefined {
  return observeElementRect(instance, (rect) => cb(rect.width === 0 && rect.height === 0 ? NO_LAYOUT : rect));
}

/**
 * A long list that renders only the rows in view (hundreds of tools, thousands of messages). The
 * list is a real list for screen readers: each rendered row says its position in the whole set.
 * Row positions are set through the CSSOM (the virtualizer's style props), which the page's
 * Content-Security-Policy allows; no inline style attribute is ever written.
 */
export function VirtualList<T>({ items, label, getKey, renderItem, estimateSize = 56, className, overscan = 8, followTail = false }: Props<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  // The same function until the items change: a new one makes the virtualizer recompute every
  // row's position, which on each scroll of a 10,000-row log is a long task.
  const itemKey = useCallback((index: number) => getKey(items[index]!, index), [items, getKey]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is designed to be used this way
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    getItemKey: itemKey,
    overscan,
    // Until the first measurement assume a window-sized viewport.
    initialRect: NO_LAYOUT,
    observeElementRect: observeOrAssume,
  });
  const rows = virtualizer.getVirtualItems();
  const count = items.length;
  useEffect(() => {
    if (followTail && atEnd.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [followTail, count, virtualizer]);
  return (
    <div
      ref={scrollRef}
      className={`vlist${className ? ` ${className}` : ''}`}
      tabIndex={-1}
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      <div role="list" aria-label={label} className="vlist__inner" style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => (
          <div
            role="listitem"
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            className="vlist__row"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            {renderItem(items[row.index]!, row.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
