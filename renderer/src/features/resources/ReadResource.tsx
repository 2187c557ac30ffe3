import { useCallback, useEffect, useId, useRef } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { ResourceContent } from '../catalog/ContentView';
import { StopButton, useStoppable } from '../catalog/stoppable';
import { formatTime } from '../../lib/time-format';

interface Props {
  readonly server: string;
  readonly uri: string;
  /** The server said this resource changed since it was read. */
  readonly updated: boolean;
  /** A subscribed resource the server changed: this read is the new content, fetched at once (epoch ms of the change). */
  readonly changedAt?: number;
  readonly onReadAgain: () => void;
  readonly onClose: () => void;
}

/** One resource read (resources/read), which Stop cancels: text as text, images from data only, other binaries by size. */
export function ReadResource({ server, uri, updated, changedAt, onReadAgain, onClose }: Props) {
  const api = useHarbor();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const stoppable = useStoppable();
  const { run } = stoppable;
  const load = useCallback(() => run((requestId) => api.resources.read({ server, uri, requestId })), [api, run, server, uri]);
  const [state, retry] = useResult(load);
  useEffect(() => heading.current?.focus(), []);
  const contents = state.status === 'ready' && Array.isArray(state.value.contents) ? (state.value.contents as unknown[]) : [];
  return (
    <section className="panel detail" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {uri}
      </h2>
      <p className="muted">from {server}</p>
      {changedAt !== undefined ? (
        <div className="notice notice--info" role="status">
          <p className="notice__message">
            Changed on the server at {formatTime(changedAt)}: this is the new content (you are subscribed).
          </p>
        </div>
      ) : null}
      {updated ? (
        <div className="notice notice--info" role="status">
          <p className="notice__message">{server} says this resource changed.</p>
          <button type="button" className="button button--small" onClick={onReadAgain}>
            Read again
          </button>
        </div>
      ) : null}
      {state.status === 'loading' ? <Loading label="Reading…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} onRetry={retry} /> : null}
      {state.status === 'ready' ? (
        contents.length === 0 ? (
          <p className="muted">The server returned no content.</p>
        ) : (
          contents.map((content, i) => (typeof content === 'object' && content !== null ? <ResourceContent key={i} content={content as Record<string, unknown>} /> : null))
        )
      ) : null}
      <div className="actions">
        <StopButton stoppable={stoppable} />
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
