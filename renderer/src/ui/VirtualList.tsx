import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
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
}

/**
 * A long list that renders only the rows in view (hundreds of tools, thousands of messages). The
 * list is a real list for screen readers: each rendered row says its position in the whole set.
 * Row positions are set through the CSSOM (the virtualizer's style props), which the page's
 * Content-Security-Policy allows; no inline style attribute is ever written.
 */
export function VirtualList<T>({ items, label, getKey, renderItem, estimateSize = 56, className, overscan = 8 }: Props<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is designed to be used this way
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    getItemKey: (index) => getKey(items[index]!, index),
    overscan,
    // Until the first measurement (and in DOM-less tests) assume a window-sized viewport.
    initialRect: { width: 800, height: 600 },
  });
  const rows = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} className={`vlist${className ? ` ${className}` : ''}`} tabIndex={-1}>
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
