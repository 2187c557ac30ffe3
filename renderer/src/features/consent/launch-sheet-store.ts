/**
 * Whether the sheet of servers waiting to start is open, shared by the sheet (ConsentHost) and its
 * quiet banner at the top of the page (LaunchBanner). The sheet opens by itself once, for what is
 * waiting when the window opens (a restart's servers); after it is put aside ("Later", Escape) or
 * emptied, servers asking later only show in the banner — never a modal in the middle of a chat.
 */
export interface LaunchSheetState {
  /** Launch questions waiting for the person. */
  readonly waiting: number;
  /** The sheet is put aside: the banner offers it. */
  readonly aside: boolean;
  /** Several were shown together: the last ones stay in the sheet (no switch under the person's pointer) until none waits. */
  readonly grouped: boolean;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: LaunchSheetState = { waiting: 0, aside: false, grouped: false };

export const launchSheet = {
  snapshot: (): LaunchSheetState => state,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** How many wait now; none left puts the sheet aside for good (later ones go to the banner). */
  setWaiting(waiting: number): void {
    if (waiting === state.waiting) return;
    update({
      waiting,
      aside: waiting === 0 && state.waiting > 0 ? true : state.aside,
      grouped: waiting >= 2 ? true : waiting === 0 ? false : state.grouped,
    });
  },
  putAside(): void {
    update({ ...state, aside: true });
  },
  open(): void {
    update({ ...state, aside: false });
  },
};

function update(next: LaunchSheetState): void {
  state = next;
  for (const listener of listeners) listener();
}
