/**
 * Harbor's one JSON Schema validator, for schemas a server wrote (a tool's outputSchema, and
 * whatever else Harbor checks against a server's schema). Ajv, as the SDK's own default, with one
 * difference that matters: every `pattern` / `patternProperties` regex runs on RE2 (re2js, a
 * pure-JS port), whose matching time is linear in the input. A backtracking engine lets a server
 * freeze the host with a pattern like `^(a+)+$` and a value like "aaa…a!" (seconds to hours of
 * the main process, every server and window waiting); RE2 answers in microseconds.
 *
 * Why RE2 and not a worker with a deadline or skipping `pattern`: RE2 keeps the check (the spec
 * asks clients to validate structured results, and skipping would let invalid data through), stays
 * synchronous (the SDK's validator interface is synchronous), and needs no native module (the same
 * code in Electron and plain Node, on every OS). What RE2 cannot express — lookaround and
 * backreferences, which are exactly the features that need backtracking — is not checked: such a
 * pattern accepts every string rather than making the tool unusable.
 */
import type { JsonSchemaType, JsonSchemaValidator, JsonSchemaValidatorResult, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { Ajv, type Options } from 'ajv';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { default as addFormats } from 'ajv-formats';
import { RE2JS } from 're2js';

const ACCEPTS_EVERYTHING: RegExpLike = { test: () => true };

/**
 * Compiles a JSON Schema (ECMA-262) pattern for RE2. JSON Schema patterns are unanchored searches,
 * as RE2's `test` is. A pattern RE2 cannot run accepts every string (see the file comment).
 */
export const boundedRegExp: RegExpEngine = Object.assign(
  (pattern: string): RegExpLike => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch {
      return ACCEPTS_EVERYTHING;
    }
    // Ajv keys its compiled patterns by toString(): one per distinct source.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:/${pattern}/` } as RegExpLike;
  },
  // Only read when Ajv generates standalone code, which Harbor never does.
  { code: 'boundedRegExp' },
);

type Dialect = '2020-12' | '2019-09' | 'draft-07';

const DIALECTS: Readonly<Record<string, Dialect>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-06/schema': 'draft-07',
  'http://json-schema.org/draft-06/schema': 'draft-07',
};

/** As the SDK: no `$schema` means 2020-12 (the MCP default); an unknown dialect is an error, not a guess. */
function dialectOf(schema: JsonSchemaType): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return '2020-12';
  const dialect = DIALECTS[declared.replace(/#$/, '')];
  if (!dialect) throw new Error(`The schema declares an unsupported JSON Schema dialect ("$schema": "${declared.slice(0, 200)}"); Harbor validates 2020-12, 2019-09, draft-07 and draft-06.`);
  return dialect;
}

/** The SDK's engine settings (lenient about unknown keywords, formats checked), with RE2 for patterns. */
const ENGINE_OPTIONS: Options = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: boundedRegExp } };

/**
 * The validator Harbor gives the SDK client (`jsonSchemaValidator` option): the SDK compiles each
 * listed tool's outputSchema with it and checks every structuredContent. One engine per dialect,
 * built on first use.
 */
export class BoundedJsonSchemaValidator implements jsonSchemaValidator {
  private readonly engines = new Map<Dialect, Ajv>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const engine = this.engine(dialectOf(schema));
    const id = (schema as { $id?: unknown }).$id;
    const validate = (typeof id === 'string' ? engine.getSchema(id) : undefined) ?? engine.compile(schema as object);
    return (input: unknown): JsonSchemaValidatorResult<T> =>
      validate(input) ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) };
  }

  private engine(dialect: Dialect): Ajv {
    let engine = this.engines.get(dialect);
    if (!engine) {
      engine = dialect === '2020-12' ? new Ajv2020(ENGINE_OPTIONS) : dialect === '2019-09' ? new Ajv2019(ENGINE_OPTIONS) : new Ajv(ENGINE_OPTIONS);
      addFormats(engine);
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}
