import { describe, expect, it } from 'vitest';
import { JsonSchemaChecker, describeProblems, mayBacktrackCatastrophically, validate } from '../../main/host/json-schema';

const form = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    integer: { type: 'integer', minimum: 1, maximum: 100 },
    color: { enum: ['red', 'green'] },
    items: { type: 'array', items: { type: 'object', properties: { id: { type: 'number' } } } },
  },
  required: ['name'],
  additionalProperties: false,
};

describe('the JSON Schema checker', async () => {
  it('names each field that does not fit and what was expected', async () => {
    const problems = await validate(form, { integer: 1000, color: 'blue', items: [{ id: 'x' }], bogus: true });
    expect(problems).toEqual([
      { path: 'name', message: 'is required but missing' },
      { path: 'bogus', message: 'is not a field the schema allows' },
      { path: 'integer', message: 'expected a number at most 100' },
      { path: 'color', message: 'expected one of "red", "green"' },
      { path: 'items[0].id', message: 'expected number' },
    ]);
    expect(describeProblems(await validate(form, { name: 5 }))).toBe('name: expected string');
    expect(await validate(form, { name: 'x', integer: 7 })).toEqual([]);
  });

  it('never refuses what the schema allows: formats are annotations, unknown formats and keywords pass', async () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, when: { type: 'string', format: 'no-such-format' } },
      'x-vendor': { anything: true },
    };
    expect(await validate(schema, { email: 'not an address', when: 'whenever' })).toEqual([]);
  });

  it('uses the dialect the schema declares, and does not check one it does not know', async () => {
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } };
    expect(await validate(draft7, { a: 1 })).toEqual([{ path: 'a', message: 'expected string' }]);
    const v2019 = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } };
    expect(await validate(v2019, { a: 1 })).toEqual([{ path: '', message: 'must have property b when property a is present' }]);
    expect(await validate({ $schema: 'https://example.com/my-dialect', type: 'object' }, 5)).toEqual([]);
    // A schema that does not compile (a bad $ref) is not checked rather than refusing everything.
    expect(await validate({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 })).toEqual([]);
  });

  it('runs simple patterns, and does not run (nor refuse on) patterns that can backtrack for seconds', async () => {
    const schema = { type: 'object', properties: { slug: { type: 'string', pattern: '^[a-z-]+$' }, evil: { type: 'string', pattern: '^(a+)+$' } } };
    expect(await validate(schema, { slug: 'Not A Slug' })).toEqual([{ path: 'slug', message: 'must match pattern "^[a-z-]+$"' }]);
    const started = performance.now();
    expect(await validate(schema, { slug: 'ok', evil: `${'a'.repeat(40)}!` })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
    for (const risky of ['^(a+)+$', '(a|aa)*', '^(?:[a-z0-9]+)*$', '([a-z]{2,3})+', '(a)\\1']) expect(mayBacktrackCatastrophically(risky), risky).toBe(true);
    for (const linear of ['^[a-z]+$', '(?:ab)+', '(\\d{3})-(\\d{4})', '(a){2}', '^[(]+$']) expect(mayBacktrackCatastrophically(linear), linear).toBe(false);
  });

  it('takes another regular-expression engine (the bounded-regex hook)', async () => {
    const checker = new JsonSchemaChecker({ regExp: () => ({ test: () => false }) });
    expect(await checker.validate({ type: 'string', pattern: '^(a+)+$' }, 'aaa')).toEqual([{ path: '', message: 'must match pattern "^(a+)+$"' }]);
  });
});
