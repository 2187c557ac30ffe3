import { describe, expect, it } from 'vitest';
import { terminalSafeJson, terminalText } from '../../main/cli/terminal-text';

describe('terminalText', () => {
  it('shows every control a terminal would obey as a visible \\uXXXX', () => {
    expect(terminalText('a\u001b]52;c;cGF5bG9hZA==\u0007b')).toBe('a\\u001b]52;c;cGF5bG9hZA==\\u0007b');
    expect(terminalText('\u001b[8mhidden')).toBe('\\u001b[8mhidden');
    expect(terminalText('x\u009b2Jy\u0085z\u007f')).toBe('x\\u009b2Jy\\u0085z\\u007f');
    expect(terminalText('safe\roverwritten')).toBe('safe\\u000doverwritten');
    expect(terminalText('back\bspace\u0000nul\u000bvt\u000cff')).toBe('back\\u0008space\\u0000nul\\u000bvt\\u000cff');
  });

  it('escapes the bidi controls and line separators that reorder or split what is shown', () => {
    expect(terminalText('report\u202Etxt.exe')).toBe('report\\u202etxt.exe');
    expect(terminalText('\u2066a\u2069\u200f\u061c\u2028')).toBe('\\u2066a\\u2069\\u200f\\u061c\\u2028');
  });

  it('keeps layout (newlines, tabs, CRLF line ends) and every printable character', () => {
    const text = 'line one\r\nline two\n\tindented: ünïcödé 日本 👋🏽 👨‍👩‍👧 ½ → ✓';
    expect(terminalText(text)).toBe(text);
  });
});

describe('terminalSafeJson', () => {
  it('escapes the C1 controls JSON.stringify leaves raw, and the value parses back the same', () => {
    const value = { text: 'a\u009b2J\u0085b\u2028c\u001b' };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).not.toMatch(/\p{Cc}|[\u2028\u2029]/u);
    expect(JSON.parse(json)).toEqual(value);
  });
});
