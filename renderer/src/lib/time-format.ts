/**
 * Dates and times as the person's locale writes them, with one formatter per style for the whole
 * page. `Date#toLocale…String` builds a new Intl formatter on every call (a millisecond or more):
 * lists that show a time per row (conversations, traffic, logs) redrew slowly with it.
 * Each function gives the same text as the `toLocale…String` call it names.
 */
const formatters = {
  /** toLocaleTimeString() */
  time: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' }),
  /** toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) */
  hourMinute: new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' }),
  /** toLocaleDateString([], { month: 'short', day: 'numeric' }) */
  monthDay: new Intl.DateTimeFormat([], { month: 'short', day: 'numeric' }),
  /** toLocaleString() */
  dateTime: new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }),
};

type When = Date | number;

/** The time with seconds, e.g. "14:05:09" (toLocaleTimeString()). */
export const formatTime = (when: When): string => formatters.time.format(when);

/** Hours and minutes, e.g. "14:05". */
export const formatHourMinute = (when: When): string => formatters.hourMinute.format(when);

/** A short date, e.g. "Dec 1". */
export const formatMonthDay = (when: When): string => formatters.monthDay.format(when);

/** Date and time (toLocaleString()). */
export const formatDateTime = (when: When): string => formatters.dateTime.format(when);
