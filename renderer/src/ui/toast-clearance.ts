import { useEffect, type RefObject } from 'react';

/** The CSS variable the toast stack keeps above (toasts.css): how far from the window's bottom the composer reaches. */
const CLEARANCE = '--toast-clearance';

/**
 * Keeps notifications off an element that must stay usable (the chat's composer and its Send
 * button): while it is shown, the toast stack sits above its top edge, following its size and the
 * window's. Only one element at a time uses it (the open chat's composer).
 */
export function useToastClearance(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const measure = () => {
      const top = element.getBoundingClientRect().top;
      root.style.setProperty(CLEARANCE, `${Math.max(0, Math.ceil(window.innerHeight - top))}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty(CLEARANCE);
    };
  }, [ref]);
}
