import { useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Shown = { readonly kind: 'idle' } | { readonly kind: 'opened' } | { readonly kind: 'path'; readonly path: string; readonly problem?: string } | { readonly kind: 'error'; readonly error: HarborErrorData };

/**
 * "Open log folder": Harbor's own log (harbor.log and its rotated files) in the system's file
 * manager. The desktop app opens it; a browser page cannot open folders, so it says where the
 * folder is, with a Copy button — as it does when the system refuses.
 */
export function LogFolder() {
  const api = useHarbor();
  const [shown, setShown] = useState<Shown>({ kind: 'idle' });
  const open = async () => {
    const result = await api.app.openLogFolder({});
    if (!result.ok) setShown({ kind: 'error', error: result.error });
    else if (result.value.supported && !result.value.problem) setShown({ kind: 'opened' });
    else setShown({ kind: 'path', path: result.value.path, ...(result.value.problem ? { problem: result.value.problem } : {}) });
  };
  return (
    <div className="log-folder">
      <button type="button" className="button button--small" onClick={() => void open()}>
        Open log folder
      </button>
      {shown.kind === 'opened' ? (
        <span role="status"> Opened in your file manager.</span>
      ) : shown.kind === 'path' ? (
        <p role="status" className="log-folder__path">
          {shown.problem ? `Your system could not open it (${shown.problem}). ` : 'A browser cannot open folders on your computer. '}
          Harbor’s log is in <code>{shown.path}</code> <CopyButton text={shown.path} label="Copy path" />
        </p>
      ) : shown.kind === 'error' ? (
        <ErrorMessage error={shown.error} />
      ) : null}
    </div>
  );
}
