import { useCallback, useEffect, useState } from 'react';
import type { Result } from '../../../preload/contract';

/** A question the Host asks the person: an id to answer it by, and when it stops waiting. */
interface Question {
  readonly id: string;
  readonly deadline: number;
}

/** Where a kind of question comes from; build it with useMemo so it stays the same between renders. */
export interface QuestionFeed<Q extends Question> {
  /** Follows new questions (`add`) and questions the Host ended elsewhere (`remove`); returns what stops following. */
  readonly follow: (add: (question: Q) => void, remove: (id: string) => void) => Array<() => void>;
  /** The questions already waiting when the page (re)loads. */
  readonly pending: () => Promise<Result<readonly Q[]>>;
}

export interface QuestionQueue<Q> {
  /** The question shown now. */
  readonly current: Q | undefined;
  /** How many wait after it. */
  readonly waiting: number;
  /** Why the Host did not take the last answer to the current question. */
  readonly refusal: string | undefined;
  /**
   * Sends an answer. `final` answers (declining, denying) close the question at once; any other
   * closes it once the Host takes it, or stays open with the Host's reason when it refuses it
   * (BAD_REQUEST: the answer does not fit).
   */
  answer(id: string, send: () => Promise<Result<unknown>>, final: boolean): Promise<void>;
}

/**
 * The Host's questions of one kind, one at a time, app-wide: questions waiting before the page
 * loaded are fetched first (a reload never loses one), a question the Host ended elsewhere
 * (answered in another window, its request gave up, its deadline passed) disappears.
 */
export function useQuestionQueue<Q extends Question>(feed: QuestionFeed<Q>): QuestionQueue<Q> {
  const [queue, setQueue] = useState<readonly Q[]>([]);
  const [refusals, setRefusals] = useState<ReadonlyMap<string, string>>(new Map());

  useEffect(() => {
    let live = true;
    const add = (question: Q) => setQueue((q) => (q.some((r) => r.id === question.id) ? q : [...q, question]));
    const remove = (id: string) => setQueue((q) => q.filter((r) => r.id !== id));
    const offs = feed.follow(add, remove);
    void feed.pending().then((result) => {
      if (!live || !result.ok) return;
      const now = Date.now();
      for (const question of result.value) if (question.deadline > now) add(question);
    });
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [feed]);

  const answer = useCallback(async (id: string, send: () => Promise<Result<unknown>>, final: boolean) => {
    const remove = () => setQueue((q) => q.filter((r) => r.id !== id));
    if (final) remove();
    const result = await send();
    if (!result.ok && result.error.code === 'BAD_REQUEST') {
      setRefusals((m) => new Map(m).set(id, result.error.message));
      return;
    }
    remove();
  }, []);

  const current = queue[0];
  return { current, waiting: Math.max(0, queue.length - 1), refusal: current ? refusals.get(current.id) : undefined, answer };
}
