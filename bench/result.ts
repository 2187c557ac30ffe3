import type { BenchRecord } from '../scripts/bench-table.mjs';

export type { BenchRecord } from '../scripts/bench-table.mjs';

/**
 * One figure a benchmark reports: the value held against its target, the numbers measured side
 * by side to get it, and (where the machine sets one) the floor. bench/main.ts adds which
 * benchmark it came from, the load average around it and the verdict.
 */
export type Figure = Omit<BenchRecord, 'benchmark' | 'load' | 'seconds' | 'verdict'>;

/** A ratio of two numbers measured in this run that may be at most `target` (×). */
export function ratioFigure(fields: Omit<Figure, 'unit' | 'target' | 'problems' | 'notes'> & { target: number; problems?: readonly string[]; notes?: readonly string[] }): Figure {
  const { target, problems = [], notes = [], ...rest } = fields;
  return { ...rest, unit: '×', target: { at: 'most', value: target }, problems, notes };
}
