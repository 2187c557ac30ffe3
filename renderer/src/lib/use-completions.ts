import { useEffect, useRef, useState } from 'react';
import type { CommandRequest } from '../../../preload/contract';
import { useHarbor } from '../app/services';

export type CompletionRef = CommandRequest<'completion.complete'>['ref'];

export interface CompletionQuery {
  readonly server: string;
  readonly ref: CompletionRef;
  /** The argument being typed and what it holds now. */
  readonly name: string;
  readonly value: string;
  /** The other arguments filled so far (servers may narrow suggestions with them). */
  readonly context?: Readonly<Record<string, string>>;
  /** False until there is reason to ask (e.g. the field was focused). */
  readonly enabled?: boolean;
  readonly debounceMs?: number;
  /** How many suggestions to keep. */
  readonly limit: number;
}

export interface Completions {
  /** Suggestions for the current value, without the value itself. */
  readonly values: readonly string[];
  /** The server has more than were kept: typing more narrows them. */
  readonly hasMore: boolean;
}

const NONE: Completions = { values: [], hasMore: false };

/**
 * The server's `completion/complete` suggestions for one argument, asked for after typing pauses.
 * Only the answer to the newest question counts; a server without completions offers none.
 */
export function useCompletions({ server, ref, name, value, context, enabled = true, debounceMs = 250, limit }: CompletionQuery): Completions {
  const api = useHarbor();
  const [completions, setCompletions] = useState<Completions>(NONE);
  const latest = useRef(0);
  // Compared by content: callers build these objects on every render.
  const refKey = JSON.stringify(ref);
  const contextKey = JSON.stringify(context ?? {});

  useEffect(() => {
    if (!enabled) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      const ctx = JSON.parse(contextKey) as Record<string, string>;
      void api.completion
        .complete({ server, ref: JSON.parse(refKey) as CompletionRef, argument: { name, value }, ...(Object.keys(ctx).length ? { context: ctx } : {}) })
        .then((result) => {
          if (ticket !== latest.current) return;
          if (!result.ok) return setCompletions(NONE);
          const offered = result.value.values.filter((v) => v !== value);
          setCompletions({ values: offered.slice(0, limit), hasMore: result.value.hasMore === true || offered.length > limit });
        });
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [api, enabled, server, refKey, name, value, contextKey, debounceMs, limit]);

  // Suggestions made for an older value still show (typing on), minus the value itself.
  return { values: completions.values.filter((v) => v !== value), hasMore: completions.hasMore };
}
