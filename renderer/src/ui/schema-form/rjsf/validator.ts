import { validate as check, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { toErrorSchema, type CustomValidator, type ErrorTransformer, type RJSFSchema, type RJSFValidationError, type ValidationData, type ValidatorType } from '@rjsf/utils';
import { NOT_JSON } from './JsonField';
import { messageFor } from './messages';

/**
 * The form's JSON Schema validator. Not RJSF's Ajv validator: Ajv compiles every schema into
 * JavaScript with `new Function`, which the renderer's Content-Security-Policy (script-src 'self',
 * no 'unsafe-eval') refuses. @cfworker/json-schema interprets the schema instead (drafts 4, 7,
 * 2019-09, 2020-12), so validation runs under the same policy as the rest of the page.
 */

/** One sentence per place that is not right yet, keyed by path ("name", "items.0.id"). Empty when valid. */
export type ValidationErrors = Readonly<Record<string, string>>;

/** Wrapper keywords: their failure is already told by the keyword that failed inside them. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'additionalItems', 'additionalProperties', '$ref', '$recursiveRef', 'allOf', 'if', 'then', 'else', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'patternProperties', 'contains']);

function draftOf(schema: RJSFSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** JSON as the server will receive it: undefined dropped (the validator refuses it), a copy it may annotate. */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function decode(pointer: string): string[] {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a JSON pointer, following local `$ref`s on the way (the validator's keyword locations run through them). */
function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const part of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    if (part === '$ref' || part === '$recursiveRef') {
      const ref = (node as Record<string, unknown>)[part];
      node = typeof ref === 'string' && ref.startsWith('#') ? at(root, decode(ref)) : undefined;
      continue;
    }
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

interface Problem {
  /** Path parts of the value the problem is about ([] is the whole value). */
  readonly path: readonly string[];
  readonly keyword: string;
  readonly message: string;
}

/** Every leaf problem with the value, in the schema's words turned into a person's. */
function problems(schema: RJSFSchema, value: unknown): Problem[] {
  const root = structuredClone(schema) as Schema;
  const data = asJson(value ?? {});
  let units: OutputUnit[];
  try {
    units = check(data, root, draftOf(schema), undefined, false).errors;
  } catch (error) {
    return [{ path: [], keyword: 'schema', message: `The form's schema could not be read: ${(error as Error).message}` }];
  }
  const out: Problem[] = [];
  for (const unit of units) {
    if (WRAPPERS.has(unit.keyword)) continue;
    const keywordPath = decode(unit.keywordLocation);
    const parentSchema = at(schema, keywordPath.slice(0, -1));
    let path = decode(unit.instanceLocation);
    if (unit.keyword === 'required') {
      // Told at the missing property, where its field is.
      const missing = /required property "(.*)"\.$/.exec(unit.error)?.[1];
      if (missing !== undefined) path = [...path, missing];
    }
    const message = messageFor(unit.keyword, parentSchema, at(data, path), unit.error);
    out.push({ path, keyword: unit.keyword, message });
  }
  return [...unparsed(data, []), ...collapseAlternatives(out).filter((p) => at(data, p.path) !== NOT_JSON)];
}

/** JSON boxes whose text does not parse yet. */
function unparsed(value: unknown, path: string[]): Problem[] {
  if (value === NOT_JSON) return [{ path, keyword: 'json', message: 'Not valid JSON yet.' }];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => unparsed(child, [...path, key]));
}

/**
 * A failed oneOf/anyOf also reports what failed inside every alternative. Alternatives that are
 * plain choices (`{const, title}`) collapse into "pick one"; otherwise the inner problems tell the
 * story and the union's own line only shows when nothing deeper does.
 */
function collapseAlternatives(list: Problem[]): Problem[] {
  const key = (p: readonly string[]) => p.join('/');
  const unions = list.filter((p) => p.keyword === 'oneOf' || p.keyword === 'anyOf');
  const result: Problem[] = [];
  const seen = new Set<string>();
  for (const problem of list) {
    const here = key(problem.path);
    const union = unions.find((u) => key(u.path) === here);
    if (problem.keyword === 'const' && union) continue;
    if ((problem.keyword === 'oneOf' || problem.keyword === 'anyOf') && list.some((p) => p !== problem && p.keyword !== 'const' && key(p.path).startsWith(here) && key(p.path) !== here)) continue;
    const dedupe = `${here}\u0000${problem.message}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    result.push(problem);
  }
  return result;
}

/** First problem per path, as "a.0.b" → sentence (a pure check, usable before sending anything). */
export function validateValues(schema: RJSFSchema, value: unknown): ValidationErrors {
  const errors: Record<string, string> = {};
  for (const problem of problems(schema, value)) {
    const key = problem.path.join('.');
    errors[key] ??= problem.message;
  }
  return errors;
}

function toRjsf(problem: Problem): RJSFValidationError {
  const property = problem.path.length ? `.${problem.path.join('.')}` : '';
  return { name: problem.keyword, property, message: problem.message, stack: `${property} ${problem.message}`.trim(), params: {} };
}

/** RJSF's validator interface over the interpreter above. */
export const harborValidator: ValidatorType = {
  validateFormData(formData: unknown, schema: RJSFSchema, customValidate?: CustomValidator, transformErrors?: ErrorTransformer, uiSchema?): ValidationData<unknown> {
    let errors = problems(schema, formData).map(toRjsf);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    // customValidate is not used by Harbor's forms: the schema says everything a server checks.
    void customValidate;
    return { errors, errorSchema: toErrorSchema(errors) };
  },
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    // RJSF asks which oneOf/anyOf alternative the data fits; the alternative may $ref the root's definitions.
    const withDefinitions: RJSFSchema = { ...schema };
    if (rootSchema.$defs) withDefinitions.$defs = rootSchema.$defs;
    if (rootSchema.definitions) withDefinitions.definitions = rootSchema.definitions;
    try {
      return check(asJson(formData ?? null), structuredClone(withDefinitions) as Schema, draftOf(rootSchema), undefined, true).valid;
    } catch {
      return false;
    }
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    return { errors: problems(schema, formData) as Result[] };
  },
};
