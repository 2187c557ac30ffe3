import { useCallback, useSyncExternalStore } from 'react';
import type { ConsentChoice, ConsentRequest, HarborApi } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { noteConsentAnswered } from './consent-clock';

/**
 * The Host's consent questions still waiting, as this window knows them: `consent.pending` on
 * load (a reload never loses one), then `consent.request` / `consent.resolved` (a question the Host
 * ended elsewhere disappears). One list per connection, followed while anything shows from it: the
 * dialog (`ConsentHost`) and a chat's transcript (`ChatApprovals`) both read it, and each question
 * shows in one of them. The questions themselves wait in the Host's one queue (PendingQuestions).
 */
class ConsentList {
  private requests: readonly ConsentRequest[] = [];
  private readonly listeners = new Set<() => void>();
  private stop: (() => void) | undefined;
  /**
   * Questions that ended (answered here, or resolved) while `consent.pending` was being read: its
   * reply may have been read before they ended and arrive after the news (the Host answers a
   * command after an await, an event at once), and must not bring them back.
   */
  private endedDuringRead: Set<string> | undefined;

  constructor(private readonly api: HarborApi) {}

  readonly snapshot = (): readonly ConsentRequest[] => this.requests;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.follow();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        // Followed again from consent.pending when something shows from it next.
        this.stop?.();
        this.stop = undefined;
        this.requests = [];
      }
    };
  };

  remove(id: string): void {
    this.endedDuringRead?.add(id);
    this.set(this.requests.filter((r) => r.id !== id));
  }

  private set(requests: readonly ConsentRequest[]): void {
    this.requests = requests;
    for (const listener of [...this.listeners]) listener();
  }

  private add(request: ConsentRequest): void {
    if (!this.requests.some((r) => r.id === request.id)) this.set([...this.requests, request]);
  }

  private follow(): void {
    let live = true;
    const offRequest = this.api.on.consent.request((request) => this.add(request));
    const offResolved = this.api.on.consent.resolved(({ id }) => this.remove(id));
    const ended = new Set<string>();
    this.endedDuringRead = ended;
    // The list read's answer came (or the following stopped): what ends from now on needs no noting.
    const readDone = () => {
      if (this.endedDuringRead === ended) this.endedDuringRead = undefined;
    };
    void this.api.consent.pending({}).then(
      (result) => {
        readDone();
        if (!live || !result.ok) return;
        const now = Date.now();
        for (const request of result.value) if (request.deadline > now && !ended.has(request.id)) this.add(request);
      },
      // The connection closed before the answer: the connection banner says so; nothing to list.
      readDone,
    );
    this.stop = () => {
      live = false;
      readDone();
      offRequest();
      offResolved();
    };
  }
}

const lists = new WeakMap<HarborApi, ConsentList>();

function listFor(api: HarborApi): ConsentList {
  let list = lists.get(api);
  if (!list) {
    list = new ConsentList(api);
    lists.set(api, list);
  }
  return list;
}

export interface ConsentQueue {
  readonly requests: readonly ConsentRequest[];
  readonly decide: (id: string, decision: ConsentChoice) => void;
}

/** The questions waiting, and the one way to answer one. */
export function useConsentQueue(): ConsentQueue {
  const api = useHarbor();
  const list = listFor(api);
  const requests = useSyncExternalStore(list.subscribe, list.snapshot);
  const decide = useCallback(
    (id: string, decision: ConsentChoice) => {
      noteConsentAnswered();
      list.remove(id);
      void api.consent.respond({ id, decision });
    },
    [api, list],
  );
  return { requests, decide };
}
