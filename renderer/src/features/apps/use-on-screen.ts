import { useEffect, useState } from 'react';

/**
 * Whether an element is on (or near) the screen, turning false only after it has been away for
 * `lingerMs`: an app scrolled briefly out of view keeps running; one left behind is wound down.
 * The element is passed as it is now (a callback ref's state), so one mounted later is watched too.
 */
export function useOnScreen(element: Element | null, { margin = '300px', lingerMs = 1500 } = {}): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        // One callback can carry several changes of the same element (out, then back in while the
        // page was busy): the last one is where it is now.
        const entry = entries.at(-1);
        clearTimeout(timer);
        if (entry?.isIntersecting) setOnScreen(true);
        else timer = setTimeout(() => setOnScreen(false), lingerMs);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [element, margin, lingerMs]);
  return onScreen;
}
