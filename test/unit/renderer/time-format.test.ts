import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime, formatHourMinute, formatMonthDay, formatTime } from '../../../renderer/src/lib/time-format';

// The shared formatters replace Date#toLocale…String calls: the text shown must not change.
describe('time-format gives the same text as the toLocale… call it replaces', () => {
  const dates = [0, Date.UTC(2026, 11, 1, 23, 59, 58), Date.UTC(2024, 1, 29, 0, 0, 1), Date.UTC(2031, 6, 4, 12, 30, 0), Date.UTC(2025, 2, 9, 7, 5, 9)].map((ms) => new Date(ms));

  it.each(dates)('%s', (date) => {
    expect(formatTime(date)).toBe(date.toLocaleTimeString());
    expect(formatTime(date.getTime())).toBe(date.toLocaleTimeString());
    expect(formatHourMinute(date)).toBe(date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
    expect(formatMonthDay(date)).toBe(date.toLocaleDateString([], { month: 'short', day: 'numeric' }));
    expect(formatDateTime(date.getTime())).toBe(date.toLocaleString());
  });
});

// The same text for a person elsewhere: the person's locale and time zone (not this machine's, not
// UTC) decide. Intl's defaults are pinned to a fixed locale and zone for the module's formatters.
const RealDateTimeFormat = Intl.DateTimeFormat;
afterEach(() => {
  Intl.DateTimeFormat = RealDateTimeFormat;
  vi.resetModules();
});

async function formatAs(locale: string, timeZone: string) {
  Intl.DateTimeFormat = class extends RealDateTimeFormat {
    constructor(locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
      const defaulted = locales === undefined || (Array.isArray(locales) && locales.length === 0);
      super(defaulted ? locale : locales, { timeZone, ...options });
    }
  } as typeof Intl.DateTimeFormat;
  vi.resetModules();
  return import('../../../renderer/src/lib/time-format');
}

const LATE_NIGHT_UTC = Date.UTC(2026, 11, 1, 23, 59, 58);
const LEAP_DAY_UTC = Date.UTC(2024, 1, 29, 0, 0, 1);

describe('time-format writes what the person reads, in their locale and time zone', () => {
  it('en-US in Asia/Kolkata (UTC+5:30): the next morning', async () => {
    const f = await formatAs('en-US', 'Asia/Kolkata');
    expect(f.formatTime(LATE_NIGHT_UTC)).toBe('5:29:58 AM');
    expect(f.formatHourMinute(LATE_NIGHT_UTC)).toBe('05:29 AM');
    expect(f.formatMonthDay(LATE_NIGHT_UTC)).toBe('Dec 2');
    expect(f.formatDateTime(LATE_NIGHT_UTC)).toBe('12/2/2026, 5:29:58 AM');
    expect(f.formatMonthDay(new Date(LEAP_DAY_UTC))).toBe('Feb 29');
    expect(f.formatDateTime(LEAP_DAY_UTC)).toBe('2/29/2024, 5:30:01 AM');
  });

  it('de-DE in America/New_York: the evening before, 24-hour clock, German month', async () => {
    const f = await formatAs('de-DE', 'America/New_York');
    expect(f.formatTime(LATE_NIGHT_UTC)).toBe('18:59:58');
    expect(f.formatHourMinute(LATE_NIGHT_UTC)).toBe('18:59');
    expect(f.formatMonthDay(LATE_NIGHT_UTC)).toBe('1. Dez.');
    expect(f.formatDateTime(LATE_NIGHT_UTC)).toBe('1.12.2026, 18:59:58');
    expect(f.formatMonthDay(LEAP_DAY_UTC)).toBe('28. Feb.');
    expect(f.formatDateTime(new Date(LEAP_DAY_UTC))).toBe('28.2.2024, 19:00:01');
  });
});

// Building a formatter loads locale data: 40–80 ms of a fresh page's main thread for the four,
// which the chat page paid while its chunk was evaluated (docs/benchmarks.md, round seven).
describe('time-format builds each formatter when it is first used, once', () => {
  it('none when the module loads; one per style used, kept', async () => {
    const built: string[] = [];
    Intl.DateTimeFormat = class extends RealDateTimeFormat {
      constructor(locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
        super(locales, options);
        built.push(Object.keys(options ?? {}).join(','));
      }
    } as typeof Intl.DateTimeFormat;
    vi.resetModules();
    const f = await import('../../../renderer/src/lib/time-format');
    expect(built).toEqual([]);
    f.formatMonthDay(LATE_NIGHT_UTC);
    f.formatMonthDay(LEAP_DAY_UTC);
    expect(built).toEqual(['month,day']);
    f.formatHourMinute(LATE_NIGHT_UTC);
    f.formatHourMinute(LATE_NIGHT_UTC);
    expect(built).toEqual(['month,day', 'hour,minute']);
  });
});
