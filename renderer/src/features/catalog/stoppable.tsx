import { useCallback, useRef, useState } from 'react';
import { useHarbor } from '../../app/services';

function newRequestId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export interface Stoppable {
  /** Sends one request under a fresh requestId (a request still running is superseded: cancelled); while it runs, `stop` cancels it. */
  run<T>(send: (requestId: string) => Promise<T>): Promise<T>;
  /** Asks main to cancel the running request (calls.cancel): the server is told, the request ends CANCELLED. */
  stop(): void;
  readonly running: boolean;
  readonly stopping: boolean;
}

/**
 * A request the person started by hand — running a tool, reading a resource, getting a prompt —
 * that they can stop, as chat's Stop stops a turn. `run` is stable across renders.
 */
export function useStoppable(): Stoppable {
  const api = useHarbor();
  const current = useRef<string | undefined>(undefined);
  const [running, setRunning] = useState(false);
  const [stopping, setStopping] = useState(false);

  const run = useCallback(async <T,>(send: (requestId: string) => Promise<T>): Promise<T> => {
    // Its answer would be dropped (a view shows its latest request only): the server may stop too.
    if (current.current) void api.calls.cancel({ requestId: current.current });
    const requestId = newRequestId();
    current.current = requestId;
    setRunning(true);
    setStopping(false);
    try {
      return await send(requestId);
    } finally {
      if (current.current === requestId) {
        current.current = undefined;
        setRunning(false);
        setStopping(false);
      }
    }
  }, [api]);

  const stop = useCallback(() => {
    const requestId = current.current;
    if (!requestId) return;
    setStopping(true);
    void api.calls.cancel({ requestId });
  }, [api]);

  return { run, stop, running, stopping };
}

/** The Stop button shown while a manual request runs. */
export function StopButton({ stoppable }: { readonly stoppable: Stoppable }) {
  if (!stoppable.running) return null;
  return (
    <button type="button" className="button" onClick={stoppable.stop} disabled={stoppable.stopping}>
      {stoppable.stopping ? 'Stopping…' : 'Stop'}
    </button>
  );
}
