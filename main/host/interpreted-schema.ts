import type * as CfWorkerModule from '@cfworker/json-schema';
import type { SchemaDraft } from '@cfworker/json-schema';
import { createRequire } from 'node:module';

/**
 * A JSON Schema check that interprets the schema instead of compiling it (@cfworker/json-schema,
 * which the renderer's forms use too). Why: Ajv generates and compiles a JS function per schema,
 * and the first compile in a process costs 20–50 ms of CPU whatever its options (#32). A one-shot
 * `harbor call` checks one tool's arguments and one result, once each, so it never earns that
 * back; interpreting a small schema costs well under a millisecond. A long-lived Host keeps Ajv,
 * whose compiled checks pay back over many calls (JsonSchemaValidatorOptions.checks).
 *
 * This only answers "valid or not", quickly. When it says "not" (or cannot say), the caller asks
 * Ajv, whose errors are what the person reads: a refusal is worded exactly as before, and Ajv has
 * the last word whenever the two would disagree.
 */
export type InterpretedCheck = (value: unknown) => boolean | undefined;

/** Builds the interpreted check of a schema (its JSON text, its dialect), or undefined to leave it to Ajv. */
export type SchemaInterpreter = (schemaText: string, dialect: keyof typeof DRAFTS, applyDefaults: boolean) => InterpretedCheck | undefined;

/** The dialects Harbor knows, as the interpreter names them (draft-06 is read as draft-07). */
const DRAFTS: Record<'2020-12' | '2019-09' | 'draft-07', SchemaDraft> = { '2020-12': '2020-12', '2019-09': '2019-09', 'draft-07': '7' };

/**
 * Schemas the interpreter must not (or cannot faithfully) run, left to Ajv. Matched on the schema's
 * JSON text, so a property or value of the same name sends a schema to Ajv too: only slower.
 * - `pattern` / `patternProperties`: the interpreter runs them with JS's backtracking RegExp and
 *   takes no other engine; a server's pattern must run on RE2 (json-schema.ts, linearTimeRegex).
 * - `format`: the interpreter's formats are its own regexes, run on server-sent strings (the
 *   output check), and differ from ajv-formats'; and it cannot treat formats as annotations, as
 *   the argument check asks.
 * - `$dynamicRef` / `$dynamicAnchor`: not implemented by the interpreter.
 * - `multipleOf`: the interpreter divides exactly (1.15 is a multiple of 0.01), Ajv in floating
 *   point (it is not); the app's Host uses Ajv, so a one-shot command would accept what the app
 *   refuses.
 * - a property named like a member of Object.prototype (`constructor`, `toString`, …): Ajv sees
 *   the inherited member where the interpreter sees none, and they answer differently.
 * A "valid" from the interpreter is final, so it runs only where the two are known to agree.
 */
const LEFT_TO_AJV = new RegExp(`"(?:${['pattern', 'patternProperties', 'format', '$dynamicRef', '$dynamicAnchor', 'multipleOf', ...Object.getOwnPropertyNames(Object.prototype)].map((word) => word.replace(/\$/g, '\\$')).join('|')})"`);

const requireCjs = createRequire(import.meta.url);
let cfworker: typeof CfWorkerModule | undefined;

/**
 * The interpreted check of `schemaText` (the schema's JSON), or undefined when the schema is left
 * to Ajv. `applyDefaults` is Ajv's alone (the interpreter fills nothing in).
 */
export const interpretedCheck: SchemaInterpreter = (schemaText, dialect, applyDefaults) => {
  if (applyDefaults || LEFT_TO_AJV.test(schemaText)) return undefined;
  // draft-07 ignores the siblings of a `$ref` (the interpreter does), Ajv applies them: Ajv's way is kept.
  if (dialect === 'draft-07' && schemaText.includes('"$ref"')) return undefined;
  let validator: CfWorkerModule.Validator;
  try {
    // Loaded when first needed, with `require` (it ships CommonJS) because checking is synchronous.
    cfworker ??= requireCjs('@cfworker/json-schema') as typeof CfWorkerModule;
    // A copy: the interpreter notes resolved references in the schema object it is given.
    validator = new cfworker.Validator(JSON.parse(schemaText) as CfWorkerModule.Schema, DRAFTS[dialect], true);
  } catch {
    // The interpreter cannot load or will not take this schema (a form it does not know): Ajv
    // compiles it, and says so when it cannot either — nothing is left unchecked or unsaid.
    return undefined;
  }
  return (value) => {
    try {
      return validator.validate(value).valid;
    } catch {
      // An unresolvable $ref, a value JSON cannot hold: Ajv decides.
      return undefined;
    }
  };
};
