/**
 * The validator loads only the engine a schema needs (#32: `harbor call` checks a tool's arguments
 * and its result): the dialect's Ajv class, ajv-formats only when formats are asserted, RE2 only
 * when a schema has a pattern. Checked in a fresh Node process (Node strips the types of the
 * TypeScript source), where nothing else has loaded them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE, REPO } from '../helpers/host';

/** Runs `steps` (JS using `v`, a JsonSchemaValidator) and returns the ajv and re2js files loaded. */
function loadedAfter(steps: string, options = '{}'): string[] {
  const source = join(REPO, 'main/host/json-schema.ts');
  const interpreter = join(REPO, 'main/host/interpreted-schema.ts');
  // The sources import each other without an extension, as the build resolves them: so does this process.
  const script = `import { createRequire, registerHooks } from 'node:module';
registerHooks({ resolve: (specifier, context, next) => { try { return next(specifier, context); } catch (error) { if (specifier.startsWith('.')) return next(specifier + '.ts', context); throw error; } } });
const { JsonSchemaValidator } = await import(${JSON.stringify(source)});
const { interpretedCheck } = await import(${JSON.stringify(interpreter)});
const v = new JsonSchemaValidator(${options});
${steps}
const loaded = Object.keys(createRequire(import.meta.url).cache).flatMap((f) => /node_modules\\/(ajv\\/dist\\/(?:2019|2020|ajv)\\.js|ajv-formats\\/dist\\/index\\.js|re2js|@cfworker\\/json-schema)/.exec(f)?.[1] ?? []);
console.log(JSON.stringify([...new Set(loaded)].sort()));`;
  const run = spawnSync(NODE, ['--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: REPO });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as string[];
}

describe('the JSON Schema validator loads what a schema needs', () => {
  it('a tool\'s arguments (2020-12, formats as annotations, no pattern): the 2020-12 engine alone', () => {
    const loaded = loadedAfter(`if (!v.validate({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x' }, { assertFormats: false }).valid) process.exit(3);`);
    expect(loaded).toEqual(['ajv/dist/2020.js']);
  });

  // The SDK client bundles (and has loaded) the draft-07 class and ajv-formats: no second copy.
  it('a draft-07 result schema with formats asserted: the SDK\'s bundled draft-07 engine and formats, none of our ajv, and the format is checked', () => {
    const loaded = loadedAfter(`const r = v.validate({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { at: { type: 'string', format: 'date' }, n: { type: 'integer' } } }, { at: 'nope', n: 'x' });
if (r.valid || r.problems.map((p) => p.path).join() !== 'at,n') process.exit(3);
if (!v.validate({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { at: { type: 'string', format: 'date' } } }, { at: '2026-01-31' }).valid) process.exit(4);`);
    expect(loaded).toEqual([]);
  });

  // A one-shot command's validator interprets first: no Ajv engine for a value the interpreter accepts.
  it('interpreted first: a valid value loads the interpreter and no Ajv engine; a refusal loads the engine to word it', () => {
    const schema = `{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }`;
    const valid = loadedAfter(`if (!v.validate(${schema}, { a: 'x' }, { assertFormats: false }).valid) process.exit(3);`, '{ interpreter: interpretedCheck }');
    expect(valid).toEqual(['@cfworker/json-schema']);
    const refused = loadedAfter(`const r = v.validate(${schema}, { a: 5 }, { assertFormats: false });
if (r.valid || r.problems[0].message !== 'must be a string (got 5)') process.exit(3);`, '{ interpreter: interpretedCheck }');
    expect(refused).toEqual(['@cfworker/json-schema', 'ajv/dist/2020.js']);
  });

  it('a pattern: RE2 as well, and the pattern is checked', () => {
    const loaded = loadedAfter(`if (v.validate({ type: 'string', pattern: '^a+$' }, 'b', { assertFormats: false }).valid) process.exit(3);`);
    expect(loaded).toEqual(['ajv/dist/2020.js', 're2js']);
  });
});
