#!/usr/bin/env node
// `npm run bench:readme`: writes README.md's benchmark table from bench/results/latest.json (what
// the last full `npm run bench` measured). test/unit/bench-table.test.ts checks that they agree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readResults, renderReadmeSection, replaceReadmeSection } from './bench-table.mjs';

const root = resolve(import.meta.dirname, '..');
const readmePath = join(root, 'README.md');
const resultsPath = join(root, 'bench/results/latest.json');
try {
  const readme = readFileSync(readmePath, 'utf8');
  writeFileSync(readmePath, replaceReadmeSection(readme, renderReadmeSection(readResults(resultsPath))));
  process.stdout.write(`README.md: benchmark table written from bench/results/latest.json\n`);
} catch (error) {
  process.stderr.write(`bench:readme: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
