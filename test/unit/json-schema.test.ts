/**
 * Harbor's one JSON Schema validator (main/host/json-schema.ts): real validation in the dialect a
 * schema declares, problems that name the field and what was expected, defaults filled in on
 * request, server regexes that cannot stall the host, and schemas it cannot check left unchecked
 * rather than guessed. Plus the elicitation answer check built on it.
 */
import { describe, expect, it } from 'vitest';
import { JsonSchemaValidator, type RegexEngine } from '../../main/host/json-schema';
import { describeProblems } from '../../main/host/schema-problems';
import { interpretedCheck } from '../../main/host/interpreted-schema';
import { checkElicitationAnswer } from '../../main/host/servers/elicitation-answer';

/** The form server-everything 2026.8.31's trigger-elicitation-request asks for (abridged). */
const everythingForm = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string' },
    check: { type: 'boolean' },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    untitledMultipleSelectEnum: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['Guitar', 'Piano'] }, default: ['Guitar'] },
    titledSingleSelectEnum: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }], default: 'hero-1' },
  },
  required: ['name'],
};

// Every check holds whether schemas are compiled (the long-lived Host) or interpreted first (a one-shot command).
describe.each([
  ['compiled', {}],
  ['interpreted first', { interpreter: interpretedCheck }],
] as const)('JsonSchemaValidator (%s)', (_, options) => {
  const validator = new JsonSchemaValidator(options);

  it('names each wrong field and what was expected', () => {
    const check = validator.validate(everythingForm, { name: 5, integer: 1000 });
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.problems).toEqual([
      { path: 'name', message: 'must be a string (got 5)' },
      { path: 'integer', message: 'must be at most 100 (got 1000)' },
    ]);
    expect(describeProblems(check.problems, 'the answer')).toBe('"name" must be a string (got 5); "integer" must be at most 100 (got 1000)');
  });

  it('reports a missing required field, formats, choices and nested paths', () => {
    const missing = validator.validate(everythingForm, {});
    expect(missing).toEqual({ valid: false, problems: [{ path: 'name', message: 'is required' }] });
    const formats = validator.validate(everythingForm, { name: 'Ada', email: 'not-an-email', birthdate: '31/01/2000', titledSingleSelectEnum: 'hero-9' });
    expect(formats.valid ? [] : formats.problems.map((p) => p.path)).toEqual(['email', 'birthdate', 'titledSingleSelectEnum']);
    expect(formats.valid ? '' : formats.problems[2]!.message).toBe('must be one of "hero-1", "hero-2" (got "hero-9")');
    const nested = validator.validate({ type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } }, { items: [{ id: 1 }, { id: 'x' }] });
    expect(nested).toEqual({ valid: false, problems: [{ path: 'items[1].id', message: 'must be an integer (got "x")' }] });
  });

  it('fills in defaults on request, in a copy; the value given is untouched', () => {
    const given = { name: 'Ada' };
    const check = validator.validate(everythingForm, given, { applyDefaults: true });
    expect(check).toEqual({
      valid: true,
      value: { name: 'Ada', firstLine: 'It was a dark and stormy night.', integer: 42, untitledMultipleSelectEnum: ['Guitar'], titledSingleSelectEnum: 'hero-1' },
    });
    expect(given).toEqual({ name: 'Ada' });
    expect(validator.validate(everythingForm, given)).toEqual({ valid: true, value: { name: 'Ada' } });
  });

  it('uses the dialect a schema declares (2020-12 when it declares none)', () => {
    // prefixItems exists in 2020-12 only: draft-07 ignores it.
    const tuple = { prefixItems: [{ type: 'string' }] };
    expect(validator.validate(tuple, [1]).valid).toBe(false);
    expect(validator.validate({ $schema: 'http://json-schema.org/draft-07/schema#', ...tuple }, [1]).valid).toBe(true);
    expect(validator.validate({ $schema: 'https://example.com/my-dialect', type: 'string' }, 5)).toEqual({
      valid: true,
      value: 5,
      unchecked: 'its dialect "https://example.com/my-dialect" is not one Harbor knows',
    });
  });

  it('runs a catastrophic pattern in linear time (RE2), so a server cannot stall the host', () => {
    const started = performance.now();
    const check = validator.validate({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`);
    expect(performance.now() - started).toBeLessThan(500);
    expect(check.valid).toBe(false);
    expect(validator.validate({ type: 'string', pattern: '^(a+)+$' }, 'aaaa').valid).toBe(true);
    expect(validator.validate({ type: 'string', pattern: '^b' }, 'aaaa').valid).toBe(false);
    // patternProperties go through the same engine.
    expect(validator.validate({ type: 'object', patternProperties: { '^x-': { type: 'number' } } }, { 'x-a': 'no' }).valid).toBe(false);
  });

  it('leaves a schema it cannot check unchecked instead of guessing (a pattern RE2 cannot run, a broken $ref)', () => {
    const backreference = validator.validate({ type: 'string', pattern: '(a)\\1' }, 'ab');
    expect(backreference).toMatchObject({ valid: true });
    // Only that pattern goes unchecked: the rest of the schema still is.
    expect(validator.validate({ type: 'string', pattern: '(a)\\1' }, 5)).toMatchObject({ valid: false });
    expect(validator.validate({ $ref: '#/$defs/missing' }, 1)).toMatchObject({ valid: true, unchecked: expect.any(String) });
    expect(validator.validate(true, 1)).toEqual({ valid: true, value: 1 });
    expect(validator.validate(false, 1).valid).toBe(false);
  });

  it('takes another regex engine through the policy hook', () => {
    const seen: string[] = [];
    const counting: RegexEngine = (source) => {
      seen.push(source);
      return { test: () => true };
    };
    const custom = new JsonSchemaValidator({ ...options, regex: counting });
    expect(custom.validate({ type: 'string', pattern: '^z+$' }, 'abc').valid).toBe(true);
    expect(seen).toEqual(['^z+$']);
  });

  it('compiles each schema once, two schemas with one $id do not clash', () => {
    const a = { $id: 'https://example.com/schemas/same', type: 'string' };
    const b = { $id: 'https://example.com/schemas/same', type: 'number' };
    expect(validator.validate(a, 'x').valid).toBe(true);
    expect(validator.validate(b, 1).valid).toBe(true);
    expect(validator.validate(b, 'x').valid).toBe(false);
  });
});

describe('checkElicitationAnswer', () => {
  const validator = new JsonSchemaValidator();

  it('drops fields the form does not ask for (and names them), fills defaults, and accepts', () => {
    expect(checkElicitationAnswer(validator, everythingForm, { name: 'Ada', bogus: true })).toEqual({
      ok: true,
      dropped: ['bogus'],
      content: { name: 'Ada', firstLine: 'It was a dark and stormy night.', integer: 42, untitledMultipleSelectEnum: ['Guitar'], titledSingleSelectEnum: 'hero-1' },
    });
  });

  it('refuses what browser mode once passed through unchanged', () => {
    const checked = checkElicitationAnswer(validator, everythingForm, { name: 123, integer: 'abc', bogus: true });
    expect(checked).toEqual({
      ok: false,
      problems: [
        { path: 'name', message: 'must be a string (got 123)' },
        { path: 'integer', message: 'must be an integer (got "abc")' },
      ],
      message: '"name" must be a string (got 123); "integer" must be an integer (got "abc")',
    });
    expect(checkElicitationAnswer(validator, everythingForm, ['Ada'])).toMatchObject({ ok: false, message: 'the answer must be a JSON object of field values' });
  });
});

describe('tool arguments (formats as annotations)', () => {
  const validator = new JsonSchemaValidator();

  it('never refuses what the schema allows: formats and unknown keywords pass when formats are annotations', () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, when: { type: 'string', format: 'no-such-format' } },
      'x-vendor': { anything: true },
    };
    const value = { email: 'not an address', when: 'whenever' };
    expect(validator.validate(schema, value, { assertFormats: false })).toMatchObject({ valid: true });
    // The same value against a form, where formats are asserted, is refused.
    expect(validator.validate(schema, value)).toMatchObject({ valid: false, problems: [{ path: 'email' }] });
    // Types still count.
    expect(validator.validate(schema, { email: 5 }, { assertFormats: false })).toMatchObject({ valid: false });
  });
});
