/**
 * The benchmarks' one table: the verdict of a figure (ok, missed, out of reach when the floor
 * measured in the same run already misses the target), cells that survive any text, and README's
 * benchmark section kept identical to what `npm run bench:readme` makes of bench/results/latest.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  README_END,
  README_START,
  TABLE_HEADER,
  readResults,
  readmeSection,
  renderReadmeSection,
  renderTable,
  replaceReadmeSection,
  tableRow,
  verdict,
  type BenchFile,
  type BenchRecord,
} from '../../scripts/bench-table.mjs';

const REPO = resolve(import.meta.dirname, '../..');
const RESULTS = join(REPO, 'bench/results/latest.json');

function record(fields: Partial<BenchRecord> = {}): BenchRecord {
  return {
    benchmark: 'per-call',
    name: 'per-call overhead',
    value: 1.05,
    unit: '×',
    target: { at: 'most', value: 1.1 },
    measured: 'harbor 0.42 ms, bare 0.40 ms',
    problems: [],
    notes: [],
    load: { before: [1, 1, 1], after: [1, 1, 1] },
    seconds: 3,
    verdict: 'ok',
    ...fields,
  };
}

function file(results: BenchRecord[]): BenchFile {
  return {
    machine: { cores: 2, cpuModel: 'Test CPU', memoryGB: 8, node: 'v24.0.0', platform: 'linux', arch: 'x64', date: '2026-12-01T10:00:00.000Z', loadAverage: [0.5, 0.25, 0.125] },
    only: [],
    results,
    failed: [],
    seconds: 60,
  };
}

describe('verdict', () => {
  it('is ok when the value meets its target, whichever way the target points', () => {
    expect(verdict(record({ value: 1.1 }))).toBe('ok');
    expect(verdict(record({ value: 97, unit: '%', target: { at: 'least', value: 95 } }))).toBe('ok');
  });

  it('is missed past the target, on a problem, or when nothing was measured', () => {
    expect(verdict(record({ value: 1.2 }))).toBe('missed');
    expect(verdict(record({ value: 90, unit: '%', target: { at: 'least', value: 95 } }))).toBe('missed');
    expect(verdict(record({ problems: ['2 survivors'] }))).toBe('missed');
    expect(verdict(record({ value: Number.NaN }))).toBe('missed');
  });

  it('is out of reach only when the floor measured in the run misses the target too', () => {
    expect(verdict(record({ value: 2.4, target: { at: 'most', value: 1.5 }, floor: { value: 2.2, note: 'CPU' } }))).toBe('out of reach');
    expect(verdict(record({ value: 2.4, target: { at: 'most', value: 1.5 }, floor: { value: 1.2, note: 'CPU' } }))).toBe('missed');
    // A problem is never excused by the machine.
    expect(verdict(record({ value: 2.4, target: { at: 'most', value: 1.5 }, floor: { value: 2.2, note: 'CPU' }, problems: ['timeout'] }))).toBe('missed');
  });
});

describe('the table', () => {
  it('has one row per figure, any number of benchmarks and figures', () => {
    const rows = Array.from({ length: 7 }, (_, i) => record({ benchmark: `arm-${i}`, name: `figure ${i}` }));
    const table = renderTable(rows).split('\n');
    expect(table[0]).toBe(TABLE_HEADER);
    expect(table).toHaveLength(2 + rows.length);
    expect(table[2]).toBe('| figure 0 | 1.05× — harbor 0.42 ms, bare 0.40 ms | ≤ 1.10× | ok |');
  });

  it('keeps a pipe or a newline in measured text inside its cell', () => {
    const row = tableRow(record({ measured: 'a | b\nc', problems: ['x|y'], value: 3 }));
    expect(row).toBe('| per-call overhead | 3.00× — a \\| b c | ≤ 1.10× | missed (x\\|y) |');
  });

  it('shows the floor beside a target the machine cannot meet', () => {
    const row = tableRow(record({ value: 2.4, target: { at: 'most', value: 1.5 }, floor: { value: 2.2, note: 'CPU' } }));
    expect(row).toContain('| ≤ 1.50× (floor here 2.20×) | out of reach |');
  });
});

describe("README's benchmark section", () => {
  it('is replaced between its markers and nowhere else', () => {
    const section = renderReadmeSection(file([record()]));
    const readme = `# Title\n\nbefore\n\n${README_START}\nold table\n${README_END}\n\nafter\n`;
    const updated = replaceReadmeSection(readme, section);
    expect(updated.startsWith('# Title\n\nbefore\n\n')).toBe(true);
    expect(updated.endsWith('\n\nafter\n')).toBe(true);
    expect(readmeSection(updated)).toBe(section);
    expect(section).toContain('Measured 2026-12-01 on 2 cores (Test CPU), 8 GB, Node v24.0.0, linux');
    expect(() => replaceReadmeSection('# no section\n', section)).toThrow(/no benchmark section/);
  });

  it('shows the table of bench/results/latest.json (npm run bench:readme writes it)', () => {
    expect(existsSync(RESULTS), 'bench/results/latest.json is missing: run "npm run bench"').toBe(true);
    const results = readResults(RESULTS);
    expect(results.only, 'latest.json holds a partial run (--only); README shows a full run').toEqual([]);
    expect(results.results.length).toBeGreaterThan(0);
    const inReadme = readmeSection(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(inReadme, 'README.md has no benchmark section').toBeDefined();
    expect(inReadme, 'README.md is out of step with bench/results/latest.json: run "npm run bench:readme"').toBe(renderReadmeSection(results));
  });
});
