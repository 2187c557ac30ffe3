/**
 * The interpreted check a one-shot command uses (main/host/interpreted-schema.ts): it decides
 * "valid" without Ajv's code generation, leaves to Ajv every schema it must not run (a server's
 * pattern runs on RE2 only), and a refusal reads exactly as the compiled validator words it.
 */
import { describe, expect, it } from 'vitest';
import { interpretedCheck } from '../../main/host/interpreted-schema';
import { JsonSchemaValidator, linearTimeRegex } from '../../main/host/json-schema';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
/** server-memory 2026.8.31's read_graph outputSchema (abridged: descriptions dropped). */
const readGraphOutput = {
  $schema: DRAFT_07,
  type: 'object',
  properties: {
    entities: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, entityType: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } }, required: ['name', 'entityType', 'observations'], additionalProperties: false } },
    relations: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' }, relationType: { type: 'string' } }, required: ['from', 'to', 'relationType'], additionalProperties: false } },
  },
  required: ['entities', 'relations'],
  additionalProperties: false,
};
const interpret = (schema: object, dialect: '2020-12' | '2019-09' | 'draft-07' = '2020-12', applyDefaults = false) => interpretedCheck(JSON.stringify(schema), dialect, applyDefaults);

describe('interpretedCheck', () => {
  it('judges a schema without patterns or formats in every dialect Harbor knows', () => {
    const check = interpret(readGraphOutput, 'draft-07')!;
    expect(check({ entities: [], relations: [] })).toBe(true);
    expect(check({ entities: [{ name: 'a', entityType: 'person', observations: [5] }], relations: [] })).toBe(false);
    expect(check({ entities: [], relations: [], extra: 1 })).toBe(false);
    expect(interpret({ prefixItems: [{ type: 'string' }] })!([1])).toBe(false);
    // Where the interpreter is stricter than the dialect (it applies prefixItems to draft-07 too),
    // Ajv, asked to word the refusal, has the last word: the validator accepts.
    expect(interpret({ prefixItems: [{ type: 'string' }] }, 'draft-07')!([1])).toBe(false);
    expect(new JsonSchemaValidator({ interpreter: interpretedCheck }).validate({ $schema: DRAFT_07, prefixItems: [{ type: 'string' }] }, [1]).valid).toBe(true);
    expect(interpret({ type: 'object', unevaluatedProperties: false, properties: { a: {} } }, '2019-09')!({ b: 1 })).toBe(false);
  });

  it('leaves to Ajv a pattern, patternProperties, a format, $dynamicRef, defaults and a draft-07 $ref', () => {
    expect(interpret({ type: 'string', pattern: '^(a+)+$' })).toBeUndefined();
    expect(interpret({ type: 'object', patternProperties: { '^x-': { type: 'number' } } })).toBeUndefined();
    expect(interpret({ type: 'string', format: 'email' })).toBeUndefined();
    expect(interpret({ $dynamicRef: '#node' })).toBeUndefined();
    expect(interpret({ type: 'object', properties: { a: { type: 'string' } } }, '2020-12', true)).toBeUndefined();
    expect(interpret({ definitions: { a: { type: 'string' } }, $ref: '#/definitions/a', minLength: 2 }, 'draft-07')).toBeUndefined();
    // The same $ref in 2020-12, where its siblings apply, is interpreted.
    expect(interpret({ $defs: { a: { type: 'string' } }, $ref: '#/$defs/a', minLength: 2 })!('x')).toBe(false);
  });

  it('leaves to Ajv what the two answer differently: multipleOf, a property named like a member of Object.prototype', () => {
    expect(interpret({ type: 'object', properties: { amount: { type: 'number', multipleOf: 0.01 } } })).toBeUndefined();
    expect(interpret({ type: 'object', properties: { constructor: { type: 'string' } } })).toBeUndefined();
    // So a one-shot command refuses what the app's compiled check refuses.
    const schema = { type: 'object', properties: { amount: { type: 'number', multipleOf: 0.01 } } };
    const oneShot = new JsonSchemaValidator({ interpreter: interpretedCheck }).validate(schema, { amount: 1.15 }).valid;
    expect(oneShot).toBe(new JsonSchemaValidator().validate(schema, { amount: 1.15 }).valid);
    const named = { type: 'object', properties: { constructor: { type: 'string' } } };
    expect(new JsonSchemaValidator({ interpreter: interpretedCheck }).validate(named, {}).valid).toBe(new JsonSchemaValidator().validate(named, {}).valid);
  });

  it('cannot say (undefined) for a reference it cannot resolve or a value JSON cannot hold, so Ajv decides', () => {
    expect(interpret({ $ref: '#/$defs/missing' })!(1)).toBeUndefined();
    expect(interpret({ type: 'object' })!(undefined)).toBeUndefined();
  });

  it('does not change the schema object a server sent', () => {
    const schema = { $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } };
    const before = JSON.stringify(schema);
    expect(interpret(schema)!({ x: 'y' })).toBe(true);
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe('JsonSchemaValidator with the interpreter', () => {
  it('words a refusal of tool arguments exactly as the compiled validator does', () => {
    const schema = { $schema: DRAFT_07, type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', maximum: 10 } }, required: ['query'] };
    const interpreted = new JsonSchemaValidator({ interpreter: interpretedCheck });
    const compiled = new JsonSchemaValidator();
    for (const value of [{ query: 5 }, { limit: 11 }, { query: 'x', limit: 'many' }]) {
      const refused = interpreted.validate(schema, value, { assertFormats: false });
      expect(refused.valid).toBe(false);
      expect(refused).toEqual(compiled.validate(schema, value, { assertFormats: false }));
    }
    expect(interpreted.validate(schema, { query: 'x' }, { assertFormats: false })).toEqual({ valid: true, value: { query: 'x' } });
  });

  it('still runs a server\'s pattern on the regex policy (RE2 by default), never on the interpreter', () => {
    const seen: string[] = [];
    const validator = new JsonSchemaValidator({ interpreter: interpretedCheck, regex: (source, flags) => (seen.push(source), linearTimeRegex(source, flags)) });
    const started = performance.now();
    expect(validator.validate({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`).valid).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    expect(seen).toEqual(['^(a+)+$']);
  });

  it('checks a tool\'s result for the SDK with the same verdicts and Ajv\'s messages', () => {
    const sdk = new JsonSchemaValidator({ interpreter: interpretedCheck }).forSdk();
    const check = sdk.getValidator(readGraphOutput);
    expect(check({ entities: [], relations: [] })).toEqual({ valid: true, data: { entities: [], relations: [] }, errorMessage: undefined });
    expect(check({ entities: [] })).toMatchObject({ valid: false, errorMessage: expect.stringContaining("must have required property 'relations'") });
    expect(check({ entities: [{ name: 1, entityType: 'x', observations: [] }], relations: [] })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must be string') });
    // A format is asserted on results, as the SDK's default validator does (left to Ajv and ajv-formats).
    const dated = sdk.getValidator({ type: 'object', properties: { at: { type: 'string', format: 'date-time' } } });
    expect(dated({ at: 'yesterday' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must match format') });
  });
});
