import { describe, expect, it } from 'vitest';
import { AppResourceCache } from '../../main/host/apps/app-resource-cache';

const html = (kb: number, mark = 'x') => ({ contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', text: mark.repeat(kb * 1024) }] });

describe('app resource cache', () => {
  it('stays within its bytes, dropping the least recently shown first, and keeps nothing larger than itself', () => {
    const cache = new AppResourceCache(100 * 1024);
    cache.set('s', 'ui://1', html(40));
    cache.set('s', 'ui://2', html(40));
    expect(cache.get('s', 'ui://1')).toBeDefined(); // 1 is now the most recent
    cache.set('s', 'ui://3', html(40));
    expect(cache.bytes).toBeLessThanOrEqual(100 * 1024);
    expect(cache.get('s', 'ui://2')).toBeUndefined();
    expect(cache.get('s', 'ui://1')).toBeDefined();
    cache.set('s', 'ui://huge', html(200));
    expect(cache.get('s', 'ui://huge')).toBeUndefined();
    expect(cache.bytes).toBeLessThanOrEqual(100 * 1024);
  });

  it('forgets one resource or a whole server, and does not keep a read that a change overtook', async () => {
    const cache = new AppResourceCache();
    cache.set('a', 'ui://1', html(1));
    cache.set('a', 'ui://2', html(1));
    cache.set('b', 'ui://1', html(1));
    cache.forget('a', 'ui://1');
    expect([cache.get('a', 'ui://1'), cache.get('a', 'ui://2')].map(Boolean)).toEqual([false, true]);
    cache.forget('a');
    expect([cache.get('a', 'ui://2'), cache.get('b', 'ui://1')].map(Boolean)).toEqual([false, true]);
    let finish!: () => void;
    const reading = cache.through('a', 'ui://3', () => new Promise((resolve) => (finish = () => resolve(html(1, 'o')))));
    cache.forget('a');
    finish();
    expect((await reading).contents).toHaveLength(1);
    expect(cache.get('a', 'ui://3')).toBeUndefined();
  });
});
