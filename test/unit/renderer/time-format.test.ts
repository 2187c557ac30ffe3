import { describe, expect, it } from 'vitest';
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
