/**
 * Dates and times as the person's locale writes them, with one formatter per style for the whole
 * page. `Date#toLocale…String` builds a new Intl formatter on every call (a millisecond or more):
 * lists that show a time per row (conversations, traffic, logs) redrew slowly with it.
 * Each function gives the same text as the `toLocale…String` call it names.
 */
const styles = {
  /** toLocaleTimeString() */
  time: [undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' }],
  /** toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) */
  hourMinute: [[], { hour: '2-digit', minute: '2-digit' }],
  /** toLocaleDateString([], { month: 'short', day: 'numeric' }) */
  monthDay: [[], { month: 'short', day: 'numeric' }],
  /** toLocaleString() */
  dateTime: [undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }],
} satisfies Record<string, [string[] | undefined, Intl.DateTimeFormatOptions]>;

/**
 * Each formatter is built when first used, not when this module loads: building the four took
 * 40–80 ms of a fresh page's main thread at load 15 (the locale data), in the task that evaluated
 * the chat page's chunk, which needs two of them.
 */
const built = new Map<DateStyle, Intl.DateTimeFormat>();
function formatter(style: DateStyle): Intl.DateTimeFormat {
  let found = built.get(style);
  if (!found) {
    const [locales, options] = styles[style];
    found = new Intl.DateTimeFormat(locales, options);
    built.set(style, found);
  }
  return found;
}

export type DateStyle = keyof typeof styles;

/** Whether each of `wanted` is built (using it now costs no locale-data load). */
export const formattersBuilt = (wanted: readonly DateStyle[]): boolean => wanted.every((style) => built.has(style));

/** Builds each of `wanted` now: the first costs 20–50 ms (the locale data), so a list can do it in a task of its own. */
export function buildFormatters(wanted: readonly DateStyle[]): void {
  for (const style of wanted) formatter(style);
}

type When = Date | number;

/** The time with seconds, e.g. "14:05:09" (toLocaleTimeString()). */
export const formatTime = (when: When): string => formatter('time').format(when);

/** Hours and minutes, e.g. "14:05". */
export const formatHourMinute = (when: When): string => formatter('hourMinute').format(when);

/** A short date, e.g. "Dec 1". */
export const formatMonthDay = (when: When): string => formatter('monthDay').format(when);

/** Date and time (toLocaleString()). */
export const formatDateTime = (when: When): string => formatter('dateTime').format(when);
