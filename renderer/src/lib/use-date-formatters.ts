import { useEffect, useState } from 'react';
import { buildFormatters, formattersBuilt, type DateStyle } from './time-format';

/**
 * Whether the date formatters `wanted` are built; if not, builds them in a task of their own and
 * re-renders. The first Intl.DateTimeFormat of a page loads the locale data (20–50 ms of the main
 * thread): built inside a list's first render, it made that render one task over 50 ms. Until
 * then the list shows its rows without their times. `wanted` must be the same array every render.
 */
export function useDateFormatters(wanted: readonly DateStyle[]): boolean {
  const [ready, setReady] = useState(() => formattersBuilt(wanted));
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => {
      buildFormatters(wanted);
      setReady(true);
    }, 0);
    return () => clearTimeout(timer);
  }, [ready, wanted]);
  return ready;
}
