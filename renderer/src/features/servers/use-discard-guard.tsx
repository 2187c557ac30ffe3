import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { isCurrent, navigate } from '../../app/use-route';
import { DiscardDialog } from './DiscardDialog';

export interface DiscardGuard {
  /** Runs `then` at once when nothing is unsaved, else after the person chose to discard. */
  readonly confirm: (then: () => void) => void;
  /** The question, while it is asked (render it somewhere on the page). */
  readonly dialog: ReactNode;
}

/**
 * Guards unsaved edits: the page's own ways out (Cancel, Close, another server, another panel)
 * go through `confirm`; a click on any in-app link (the navigation, a server in the list) is held
 * and asked about too. In a browser tab, closing or reloading it asks through the browser's own
 * prompt (Electron would cancel the close without a word, so the app's window is left alone).
 */
export function useDiscardGuard(dirty: string | undefined): DiscardGuard {
  const [pending, setPending] = useState<(() => void) | undefined>();
  const confirm = useCallback(
    (then: () => void) => {
      if (dirty === undefined) then();
      else setPending(() => then);
    },
    [dirty],
  );

  useEffect(() => {
    if (dirty === undefined) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href^="#/"]') : null;
      const href = link?.getAttribute('href');
      if (!href || isCurrent(href)) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(() => () => navigate(href));
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const inBrowserTab = window.harbor === undefined;
    document.addEventListener('click', onClick, true);
    if (inBrowserTab) window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);

  const dialog =
    pending && dirty !== undefined ? (
      <DiscardDialog
        what={dirty}
        onKeep={() => setPending(undefined)}
        onDiscard={() => {
          const then = pending;
          setPending(undefined);
          then();
        }}
      />
    ) : null;
  return { confirm, dialog };
}
