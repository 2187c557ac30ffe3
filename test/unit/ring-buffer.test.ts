import { describe, expect, it } from 'vitest';
import { LineRing } from '../../main/host/servers/ring-buffer';

describe('LineRing', () => {
  it('splits chunks on newlines and keeps a partial last line until it completes', () => {
    const ring = new LineRing();
    expect(ring.push('first li')).toEqual([]);
    expect(ring.lines()).toEqual(['first li']);
    expect(ring.push('ne\nsecond\nthi')).toEqual(['first line', 'second']);
    expect(ring.lines()).toEqual(['first line', 'second', 'thi']);
    expect(ring.push('rd\n')).toEqual(['third']);
    expect(ring.lines()).toEqual(['first line', 'second', 'third']);
  });

  it('drops a trailing carriage return (CRLF output)', () => {
    const ring = new LineRing();
    ring.push('windows\r\nline\r');
    expect(ring.lines()).toEqual(['windows', 'line']);
    ring.push('\n');
    expect(ring.lines()).toEqual(['windows', 'line']);
  });

  it('keeps empty lines (they are part of what the server wrote)', () => {
    const ring = new LineRing();
    ring.push('a\n\nb\n');
    expect(ring.lines()).toEqual(['a', '', 'b']);
  });

  it('keeps only the last maxLines complete lines', () => {
    const ring = new LineRing(3);
    for (let i = 1; i <= 10; i++) ring.push(`line ${i}\n`);
    expect(ring.lines()).toEqual(['line 8', 'line 9', 'line 10']);
    ring.push('partial');
    expect(ring.lines()).toEqual(['line 8', 'line 9', 'line 10', 'partial']);
  });

  it('tail(n) joins the last n lines, the unfinished one included', () => {
    const ring = new LineRing();
    ring.push('a\nb\nc\nd');
    expect(ring.tail(2)).toBe('c\nd');
    expect(ring.tail(10)).toBe('a\nb\nc\nd');
    expect(ring.tail(0)).toBe('');
    expect(new LineRing().tail()).toBe('');
  });

  it('tail() defaults to the last 40 lines', () => {
    const ring = new LineRing();
    for (let i = 1; i <= 100; i++) ring.push(`${i}\n`);
    const tail = ring.tail().split('\n');
    expect(tail).toHaveLength(40);
    expect(tail[0]).toBe('61');
    expect(tail[39]).toBe('100');
  });

  it('bounds memory when a line never ends: cuts it into kept pieces', () => {
    const ring = new LineRing(500, 100);
    const completed = ring.push('x'.repeat(250));
    expect(completed).toHaveLength(2);
    expect(completed[0]).toBe(`${'x'.repeat(100)} …[line cut]`);
    expect(ring.lines()).toHaveLength(3);
    expect(ring.lines()[2]).toBe('x'.repeat(50));
  });

  it('pushLine adds a whole line without disturbing a pending partial line', () => {
    const ring = new LineRing();
    ring.push('half a li');
    ring.pushLine('[stdout noise] hello');
    ring.push('ne\n');
    expect(ring.lines()).toEqual(['[stdout noise] hello', 'half a line']);
  });
});

describe('LineRing memory', () => {
  it('keeps at most maxBytes of lines, however many lines its count allows', () => {
    const ring = new LineRing(500, 4000, 64 * 1024);
    for (let i = 0; i < 500; i++) ring.push(`${String(i).padStart(4, '0')} ${'e'.repeat(3990)}\n`);
    expect(ring.bytes).toBeLessThanOrEqual(64 * 1024);
    const lines = ring.lines();
    expect(lines.reduce((sum, line) => sum + line.length, 0)).toBeLessThanOrEqual(64 * 1024);
    expect(lines.at(-1)!.startsWith('0499 ')).toBe(true);
  });
});
