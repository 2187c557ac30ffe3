import { describe, expect, it } from 'vitest';
import { JsonSchemaValidator, linearTimeRegex } from '../../main/host/json-schema';

const validator = new JsonSchemaValidator().forSdk();
const check = (schema: Record<string, unknown>, value: unknown) => validator.getValidator(schema)(value);

describe('linearTimeRegex', () => {
  it('matches as a JSON Schema pattern does: an unanchored search, Unicode-aware', () => {
    expect(linearTimeRegex('^[a-z0-9-]+$', 'u').test('my-server-2')).toBe(true);
    expect(linearTimeRegex('^[a-z0-9-]+$', 'u').test('My Server')).toBe(false);
    expect(linearTimeRegex('\\d{3}', 'u').test('call 555-1234')).toBe(true);
    expect(linearTimeRegex('^\\p{L}+$', 'u').test('ünïcödé')).toBe(true);
    expect(linearTimeRegex('^\\u00e9$', 'u').test('é')).toBe(true);
    expect(linearTimeRegex('^(?<year>\\d{4})-\\d{2}$', 'u').test('2026-07')).toBe(true);
  });

  it('rejects what backtracking engines take exponential time to reject, in linear time', () => {
    const evil = `${'a'.repeat(100_000)}!`;
    const started = performance.now();
    expect(linearTimeRegex('^(a+)+$', 'u').test(evil)).toBe(false);
    expect(linearTimeRegex('^(a|aa)*$', 'u').test(evil)).toBe(false);
    expect(linearTimeRegex('^(\\w+\\s?)*$', 'u').test(evil)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('does not check a pattern RE2 cannot run (lookaround, backreferences) rather than failing the tool', () => {
    expect(linearTimeRegex('^(?=.*\\d)\\w+$', 'u').test('no digits')).toBe(true);
    expect(linearTimeRegex('(a)\\1', 'u').test('b')).toBe(true);
    // A pattern that would compile to a huge program is refused by RE2, not built.
    const started = performance.now();
    expect(linearTimeRegex('((a{100}){100}){100}', 'u').test('b')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('JsonSchemaValidator.forSdk (the SDK client\'s output validator)', () => {
  it('compiles a schema when its validator first runs, not when the SDK asks for it', () => {
    // The SDK asks for a validator for every listed tool's outputSchema at the first callTool: a
    // one-shot `harbor call` checks one result, so it should build one validator, not one per tool.
    const compiledPatterns: string[] = [];
    const sdk = new JsonSchemaValidator({ regex: (source, flags) => (compiledPatterns.push(source), linearTimeRegex(source, flags)) }).forSdk();
    const validators = ['^a+$', '^b+$', '^c+$'].map((pattern) => sdk.getValidator({ type: 'object', properties: { x: { type: 'string', pattern } } }));
    expect(compiledPatterns).toEqual([]);
    expect(validators[1]!({ x: 'bbb' })).toEqual({ valid: true, data: { x: 'bbb' }, errorMessage: undefined });
    expect(validators[1]!({ x: 'a' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must match pattern') });
    expect(compiledPatterns).toEqual(['^b+$']);
    // An unknown dialect is still refused when the SDK asks, as before.
    expect(() => sdk.getValidator({ $schema: 'https://example.com/mine' })).toThrow(/unsupported JSON Schema dialect/);
  });

  it('validates as the SDK default does: types, required, formats, errors as text', () => {
    const schema = { type: 'object', properties: { sum: { type: 'number' }, at: { type: 'string', format: 'date-time' } }, required: ['sum'] };
    expect(check(schema, { sum: 5 })).toEqual({ valid: true, data: { sum: 5 }, errorMessage: undefined });
    expect(check(schema, { sum: 'five' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must be number') });
    expect(check(schema, {})).toMatchObject({ valid: false, errorMessage: expect.stringContaining("must have required property 'sum'") });
    expect(check(schema, { sum: 1, at: 'yesterday' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must match format') });
  });

  it('runs pattern and patternProperties on RE2', () => {
    const evil = `${'a'.repeat(40)}!`;
    const started = performance.now();
    expect(check({ type: 'string', pattern: '^(a+)+$' }, evil).valid).toBe(false);
    expect(check({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } }, { [evil]: 'x' }).valid).toBe(true);
    expect(check({ type: 'object', patternProperties: { '^(a+)+!$': { type: 'number' } } }, { [evil]: 'x' }).valid).toBe(false);
    expect(check({ type: 'object', propertyNames: { pattern: '^(a+)+$' } }, { [evil]: 1 }).valid).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('follows the declared dialect, and refuses one it does not know', () => {
    const tuple = { prefixItems: [{ type: 'number' }], items: false };
    expect(check(tuple, [1]).valid).toBe(true);
    expect(check(tuple, [1, 2]).valid).toBe(false);
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', items: [{ type: 'number' }], additionalItems: false };
    expect(check(draft7, [1, 2]).valid).toBe(false);
    expect(() => validator.getValidator({ $schema: 'https://example.com/my-dialect' })).toThrow(/unsupported JSON Schema dialect/);
  });
});
