/**
 * Runs `flush` at most once an animation frame however often `request` is called: the first
 * request after a quiet frame runs it at once (a lone message shows without delay); the ones
 * that follow within the frame are taken together when the next frame starts. Where there are
 * no animation frames (a DOM without rendering), a 16 ms timer stands in for them.
 */
export class FrameBatch {
  private frame: (() => void) | undefined;
  private requested = false;

  constructor(private readonly flush: () => void) {}

  request(): void {
    if (this.frame) {
      this.requested = true;
      return;
    }
    this.flush();
    this.frame = nextFrame(() => this.frameStarted());
  }

  /** Forgets what is waiting: nothing runs after this. */
  dispose(): void {
    this.frame?.();
    this.frame = undefined;
    this.requested = false;
  }

  private frameStarted(): void {
    this.frame = undefined;
    if (!this.requested) return;
    this.requested = false;
    this.flush();
    // The messages keep coming: the next ones wait for the next frame too.
    this.frame = nextFrame(() => this.frameStarted());
  }
}

/** Calls `run` when the next frame starts; returns how to cancel it. */
function nextFrame(run: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(run);
    return () => cancelAnimationFrame(id);
  }
  const timer = setTimeout(run, 16);
  return () => clearTimeout(timer);
}
