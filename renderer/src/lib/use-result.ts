import { useCallback, useEffect, useState } from 'react';
import type { Result } from '../../../preload/contract';
import { asErrorData, fromResult, type LoadState } from './load-state';

/**
 * Runs `load` (a stable callback returning a contract Result) and tracks its state. `reload()`
 * fetches again while keeping what is shown, so a refresh does not flash a spinner.
 */
export function useResult<T>(load: () => Promise<Result<T>>): readonly [LoadState<T>, () => void] {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (result) => {
        if (live) setState(fromResult(result));
      },
      (error: unknown) => {
        if (live) setState({ status: 'error', error: asErrorData(error instanceof Error ? error.message : error) });
      },
    );
    return () => {
      live = false;
    };
  }, [load, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return [state, reload] as const;
}
