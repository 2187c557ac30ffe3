import { describe, expect, it } from 'vitest';
import { RingLog } from '../../main/host/ring-log';
import { jsonSizeAtMost, previewText } from '../../main/host/text-preview';

const bySize = (limits: { maxEntries: number; maxBytes: number }) => new RingLog<string>(limits, (s) => s.length);

describe('ring log', () => {
  it('keeps the newest entries within its count', () => {
    const log = bySize({ maxEntries: 3, maxBytes: 1_000 });
    for (const s of ['a', 'b', 'c', 'd', 'e']) log.push(s);
    expect(log.toArray()).toEqual(['c', 'd', 'e']);
    expect(log.length).toBe(3);
    expect(log.bytes).toBe(3);
  });

  it('keeps the newest entries within its bytes, whatever the count allows', () => {
    const log = bySize({ maxEntries: 1_000, maxBytes: 10 });
    expect(log.push('aaaa')).toBe(0);
    log.push('bbbb');
    expect(log.push('cccc')).toBe(1);
    expect(log.toArray()).toEqual(['bbbb', 'cccc']);
    expect(log.bytes).toBe(8);
    for (let i = 0; i < 10_000; i++) log.push(`x${i % 10}`);
    expect(log.bytes).toBeLessThanOrEqual(10);
    expect(log.toArray()).toEqual(['x5', 'x6', 'x7', 'x8', 'x9']);
  });

  it('keeps the newest entry even when it alone is over the bytes, and only that one', () => {
    const log = bySize({ maxEntries: 10, maxBytes: 10 });
    log.push('small');
    log.push('x'.repeat(50));
    expect(log.toArray()).toEqual(['x'.repeat(50)]);
    log.push('y');
    expect(log.toArray()).toEqual(['y']);
  });

  it('filters, gives the last n, retains and clears with its byte count in step', () => {
    const log = bySize({ maxEntries: 100, maxBytes: 100 });
    for (const s of ['a1', 'b22', 'a333', 'b4444']) log.push(s);
    expect(log.filter((s) => s.startsWith('a'))).toEqual(['a1', 'a333']);
    expect(log.last(2)).toEqual(['a333', 'b4444']);
    expect(log.last(0)).toEqual([]);
    log.retain((s) => s.startsWith('b'));
    expect(log.toArray()).toEqual(['b22', 'b4444']);
    expect(log.bytes).toBe(8);
    log.clear();
    expect([log.length, log.bytes]).toEqual([0, 0]);
  });

  it('refuses limits that keep nothing', () => {
    expect(() => bySize({ maxEntries: 0, maxBytes: 10 })).toThrow(/maxEntries ≥ 1/);
  });
});

describe('text preview', () => {
  it('returns text that fits as is, and cuts the rest with what was left out and the full size', () => {
    expect(previewText('short', 10)).toBe('short');
    const big = 'x'.repeat(500 * 1024);
    const shown = previewText(big, 1024);
    expect(shown.startsWith('x'.repeat(1024))).toBe(true);
    expect(shown.endsWith('… 499 KB more (500 KB in all)')).toBe(true);
    expect(shown.length).toBeLessThan(1100);
  });

  it('never ends on half a surrogate pair', () => {
    const shown = previewText(`a${'😀'.repeat(10)}`, 2);
    expect(shown.startsWith('a…')).toBe(true);
  });

  it('measures JSON about as JSON.stringify would, and stops past its budget', () => {
    const value = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hello' }], isError: false } };
    const exact = JSON.stringify(value).length;
    const estimate = jsonSizeAtMost(value, 10_000);
    expect(estimate).toBeGreaterThan(exact * 0.7);
    expect(estimate).toBeLessThan(exact * 1.5);
    expect(jsonSizeAtMost({ items: new Array<number>(1_000_000).fill(1) }, 100)).toBeGreaterThan(100);
  });

  it('gives a walk inside a walk (a getter calling back) the same answer, and keeps nothing it walked', async () => {
    const plain = { a: 'x'.repeat(50), b: [1, 2, 3], c: { d: 'y' } };
    const inner: number[] = [];
    const reentrant = {
      a: 'x'.repeat(50),
      get b() {
        inner.push(jsonSizeAtMost(plain, 10_000));
        return [1, 2, 3];
      },
      c: { d: 'y' },
    };
    expect(jsonSizeAtMost(reentrant, 10_000)).toBe(jsonSizeAtMost(plain, 10_000));
    expect(inner).toEqual([jsonSizeAtMost(plain, 10_000)]);

    // A walk cut short by its budget leaves most of the value unvisited: none of it may stay referenced.
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const walkCutShort = (): WeakRef<object> => {
      const big = { parts: Array.from({ length: 100 }, (_, i) => ({ i, pad: 'z'.repeat(100) })) };
      expect(jsonSizeAtMost(big, 300)).toBeGreaterThan(300);
      return new WeakRef(big.parts[0]!);
    };
    const unvisited = walkCutShort();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(unvisited.deref()).toBeUndefined();
  });
});

describe('a preview holds only itself', () => {
  it('does not keep the text it was cut from alive (V8 slices are views into their parent)', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const previews: string[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) previews.push(previewText(`${i}${'w'.repeat(512 * 1024)}`, 1024));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 100 previews of about 1 KB each, not 100 texts of 512 KB (50 MB).
    expect(grown).toBeLessThan(10 * 1024 * 1024);
    expect(previews).toHaveLength(100);
  });
});
