import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether an element is on (or near) the screen, turning false only after it has been away for
 * `lingerMs`: an app scrolled briefly out of view keeps running; one left behind is wound down.
 */
export function useOnScreen(ref: RefObject<Element | null>, { margin = '300px', lingerMs = 1500 } = {}): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
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
  }, [ref, margin, lingerMs]);
  return onScreen;
}
