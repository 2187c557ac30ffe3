/** What one benchmark reports: its measured numbers as printed, and the ratio against its target. */
export interface BenchResult {
  /** Short label for the table: "per-call overhead". */
  readonly name: string;
  /** The two measured numbers, formatted ("harbor median 0.412 ms   bare median 0.389 ms"). */
  readonly measured: string;
  readonly ratio: number;
  /** The ratio may not exceed this. */
  readonly target: number;
  /** Extra pass conditions beyond the ratio (e.g. zero survivors), with what failed. */
  readonly problems: readonly string[];
  /** Further context printed under the line (spread, per-arm detail). */
  readonly notes: readonly string[];
}

export function passed(result: BenchResult): boolean {
  return Number.isFinite(result.ratio) && result.ratio <= result.target && result.problems.length === 0;
}
