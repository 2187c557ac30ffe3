/**
 * When the person last answered a consent dialog (performance.now()). A tool run by hand waits
 * for that answer before it starts; its reported time should be the server's, from approval to
 * result — not the seconds the person spent reading the dialog.
 */
let lastAnswer = Number.NEGATIVE_INFINITY;

export function noteConsentAnswered(at: number = performance.now()): void {
  lastAnswer = at;
}

/** Where a run that began at `started` really began: the latest consent answer after it, or `started`. */
export function approvedSince(started: number): { readonly from: number; readonly approved: boolean } {
  return lastAnswer > started ? { from: lastAnswer, approved: true } : { from: started, approved: false };
}
