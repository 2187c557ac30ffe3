import { describe, expect, it } from 'vitest';
import { LOG_BOOK_LIMITS, LogBook } from '../../main/host/services/log-book';
import { checkedEvents } from '../helpers/checked-events';

describe('log book memory', () => {
  it('keeps a server’s log messages within their bytes, a large message as a preview of its data', () => {
    const book = new LogBook(checkedEvents());
    for (let i = 0; i < 200; i++) book.record('chatty', { level: 'info', data: { i, dump: 'd'.repeat(100 * 1024) } });
    const entries = book.list('chatty');
    expect(JSON.stringify(entries).length).toBeLessThanOrEqual(LOG_BOOK_LIMITS.maxBytes + entries.length * 200);
    expect(book.retainedBytes('chatty')).toBeLessThanOrEqual(LOG_BOOK_LIMITS.maxBytes);
    expect(entries.at(-1)!.data).toMatch(/^\{"i":199,"dump":"d+… \d+ KB more \(100 KB in all\)$/);
    book.record('chatty', { level: 'info', data: 'small' });
    expect(book.list('chatty').at(-1)!.data).toBe('small');
  });
});
