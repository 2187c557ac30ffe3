/**
 * Harbor's User Timing entries (a Markdown parse, an app's first paint), each cleared from the
 * page's timeline as soon as it is written. A performance trace and every PerformanceObserver
 * still get each entry as it is written; the timeline's own buffer, which nothing else empties,
 * no longer grows with every message and app for as long as the page stays open.
 */
export function measureOnce(name: string, start: number): void {
  performance.measure(name, { start });
  performance.clearMeasures(name);
}

export function markOnce(name: string, detail: unknown): void {
  performance.mark(name, { detail });
  performance.clearMarks(name);
}
