import { useEffect, useRef, useState, type ReactNode } from 'react';

interface Props {
  /** The height the content will roughly take (px), held by an empty box while it is far away. */
  readonly estimatedHeight: number;
  /** Extra CSS class of that empty box, so it looks like the content's frame (e.g. a list's border). */
  readonly placeholderClassName?: string;
  readonly children: ReactNode;
}

// One screen above and one below: content is ready before it scrolls into view.
const MARGIN = '100% 0px';

/**
 * Renders its content only while it is on or near the screen, an empty box of about its height
 * otherwise. "All servers" shows fifty servers' lists at once: mounting, styling and laying out all
 * of them (and re-rendering all of them on each keystroke of a search) is what made the page stall;
 * only the two or three lists in view need to exist. Where nothing is laid out (no
 * IntersectionObserver, or a box without height) everything renders.
 */
export function NearViewport({ estimatedHeight, placeholderClassName, children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = box.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    // A page without layout (a test DOM) gives the box no height and never reports it in view.
    if (element.getBoundingClientRect().height === 0) {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(([entry]) => setNear(entry?.isIntersecting ?? false), { rootMargin: MARGIN });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box}>
      {near ? children : <div className={placeholderClassName} style={{ height: estimatedHeight }} />}
    </div>
  );
}
