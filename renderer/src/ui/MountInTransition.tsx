import { startTransition, useEffect, useState, type ReactNode } from 'react';

interface Props {
  /** Shown until `children` are committed (the first render and while the transition runs). */
  readonly fallback: ReactNode;
  readonly children: ReactNode;
}

/**
 * Mounts `children` in a transition a moment after its own mount, so React renders the new
 * subtree in slices (yielding to the browser every ~5 ms) and only its commit is one task. A
 * long conversation's first render (a screenful of tool cards and messages) was one task of
 * 30–50 ms CPU on a fresh page. Later updates of the children are as urgent as any: only the
 * mount waits. An urgent update meanwhile renders the fallback again and the transition restarts.
 */
export function MountInTransition({ fallback, children }: Props) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    startTransition(() => setMounted(true));
  }, []);
  return mounted ? children : fallback;
}
