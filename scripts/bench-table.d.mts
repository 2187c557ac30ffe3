// Types for bench-table.mjs (plain Node ESM; bench/main.ts and the tests import it).

/** How a figure is shown: a ratio (×), milliseconds, a percentage, megabytes, or a plain number. */
export type Unit = '×' | 'ms' | '%' | 'MB' | '';

export type Verdict = 'ok' | 'missed' | 'out of reach';

/** One figure of a benchmark, as bench/results/latest.json keeps it. */
export interface BenchRecord {
  /** Which benchmark (--only NAME) produced it. */
  readonly benchmark: string;
  /** The figure's label in the table: "per-call overhead". */
  readonly name: string;
  /** The figure held against the target. */
  readonly value: number;
  readonly unit: Unit;
  /** `value` may be at most (lower is better) or must be at least this. */
  readonly target: { readonly at: 'most' | 'least'; readonly value: number };
  /** What was measured side by side to get the value ("harbor 0.41 ms, bare 0.39 ms"). */
  readonly measured: string;
  /**
   * What no implementation can beat on this machine, measured in the same run (e.g. the
   * servers' own CPU over the cores): when it misses the target itself, the target is out of reach.
   */
  readonly floor?: { readonly value: number; readonly note: string };
  /** Extra pass conditions beyond the value (e.g. zero survivors), with what failed. */
  readonly problems: readonly string[];
  /** Context printed under the line (spread, per-arm detail). */
  readonly notes: readonly string[];
  /** Load average (1, 5, 15 min) when this benchmark started and when it ended. */
  readonly load: { readonly before: readonly number[]; readonly after: readonly number[] };
  readonly seconds: number;
  readonly verdict: Verdict;
}

export interface MachineFacts {
  readonly cores: number;
  readonly cpuModel: string;
  readonly memoryGB: number;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
  /** ISO time the run started. */
  readonly date: string;
  readonly loadAverage: readonly number[];
}

/** bench/results/latest.json. */
export interface BenchFile {
  readonly machine: MachineFacts;
  /** The --only names of a partial run (empty: every benchmark). */
  readonly only: readonly string[];
  readonly results: readonly BenchRecord[];
  /** Benchmarks that could not run, with why. */
  readonly failed: readonly { readonly benchmark: string; readonly error: string }[];
  readonly seconds: number;
}

export const README_START: string;
export const README_END: string;
export const TABLE_HEADER: string;
export function formatValue(value: number, unit: Unit): string;
export function formatTarget(record: BenchRecord): string;
export function verdict(record: Pick<BenchRecord, 'value' | 'target' | 'floor' | 'problems'>): Verdict;
export function tableRow(record: BenchRecord): string;
export function renderTable(records: readonly BenchRecord[]): string;
export function renderReadmeSection(file: BenchFile): string;
export function replaceReadmeSection(readme: string, section: string): string;
export function readmeSection(readme: string): string | undefined;
export function readResults(path: string): BenchFile;
