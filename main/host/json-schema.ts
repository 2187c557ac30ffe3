/**
 * Harbor's one JSON Schema checker: a value against a schema a server sent (a tool's
 * `inputSchema`, a form's requested schema), answered as a list of problems a person can read.
 *
 * Policy, because the schema comes from a server and must never make Harbor refuse what the
 * server itself would accept, nor freeze the host:
 * - the dialect the schema declares decides the engine (none or 2020-12, 2019-09, draft-07/06,
 *   as the MCP SDK does); a dialect Ajv does not know, or a schema that does not compile, is not
 *   checked at all (no problems: the server decides);
 * - `format` is an annotation, as JSON Schema 2020-12 says by default: never a reason to refuse;
 * - regular expressions (`pattern`, `patternProperties`) run on the engine `regExp` gives. The
 *   default runs a pattern natively only when it cannot backtrack catastrophically (no
 *   quantified group holding a quantifier or an alternation, no backreference); any other
 *   pattern makes the whole check "cannot tell" (no problems) instead of risking seconds of
 *   main-process time on `^(a+)+$`-style input.
 *
 * Ajv is loaded on the first check, not with the host: importing its three engines costs about
 * 120 ms, which every CLI command would otherwise pay.
 */
import type { Ajv as Draft7Ajv, ErrorObject, ValidateFunction } from 'ajv';

/** One way a value fails its schema: where (`name`, `items[2].id`; '' for the value itself) and what was expected. */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** What Ajv needs of a compiled regular expression. */
export interface RegExpLike {
  test(value: string): boolean;
}

/** Builds the matcher for one schema pattern; may return a matcher that throws UncheckablePattern. */
export type RegExpEngine = (pattern: string, flags: string) => RegExpLike;

/** Thrown by a matcher that will not run its pattern: the check then reports nothing. */
export class UncheckablePattern extends Error {
  constructor(pattern: string) {
    super(`pattern ${pattern} is not checked locally`);
    this.name = 'UncheckablePattern';
  }
}

type Dialect = 'draft7' | '2019' | '2020';
type Engines = Record<Dialect, typeof Draft7Ajv>;

let engines: Promise<Engines> | undefined;

/** Ajv's engine classes, imported once, on first use. */
function loadEngines(): Promise<Engines> {
  engines ??= Promise.all([import('ajv'), import('ajv/dist/2019.js'), import('ajv/dist/2020.js')]).then(([draft7, v2019, v2020]) => ({
    draft7: draft7.Ajv,
    '2019': v2019.Ajv2019 as unknown as typeof Draft7Ajv,
    '2020': v2020.Ajv2020 as unknown as typeof Draft7Ajv,
  }));
  return engines;
}

const DIALECTS: Record<string, Dialect> = {
  'https://json-schema.org/draft/2020-12/schema': '2020',
  'https://json-schema.org/draft/2019-09/schema': '2019',
  'http://json-schema.org/draft-07/schema': 'draft7',
  'http://json-schema.org/draft-06/schema': 'draft7',
};

/** Never more problems than this in one answer: a person reads the first few and fixes them. */
const MAX_PROBLEMS = 8;

export interface JsonSchemaCheckerOptions {
  readonly regExp?: RegExpEngine;
}

/** Checks values against server-supplied schemas; compiled schemas are cached per schema object. */
export class JsonSchemaChecker {
  private readonly engines = new Map<Dialect, Draft7Ajv>();
  private readonly compiled = new WeakMap<object, ValidateFunction | null>();
  private readonly regExp: RegExpEngine;

  constructor(options: JsonSchemaCheckerOptions = {}) {
    this.regExp = options.regExp ?? boundedRegExp;
  }

  /** The problems of `value` against `schema`; empty when it fits, or when the schema cannot be checked. */
  async validate(schema: unknown, value: unknown): Promise<SchemaProblem[]> {
    if (typeof schema !== 'object' || schema === null) return [];
    const check = this.compile(schema, await loadEngines());
    if (!check) return [];
    try {
      if (check(value)) return [];
    } catch (error) {
      if (error instanceof UncheckablePattern) return [];
      throw error;
    }
    return toProblems(check.errors ?? []);
  }

  private compile(schema: object, engines: Engines): ValidateFunction | null {
    const known = this.compiled.get(schema);
    if (known !== undefined) return known;
    let check: ValidateFunction | null = null;
    const dialect = dialectOf(schema);
    if (dialect) {
      const engine = this.engine(dialect, engines);
      try {
        check = engine.compile(schema);
      } catch {
        check = null;
      } finally {
        // Ajv keeps every compiled schema in a Map of its own; the WeakMap above is the cache.
        engine.removeSchema(schema);
      }
    }
    this.compiled.set(schema, check);
    return check;
  }

  private engine(dialect: Dialect, engines: Engines): Draft7Ajv {
    let engine = this.engines.get(dialect);
    if (!engine) {
      const Engine = engines[dialect];
      engine = new Engine({
        strict: false,
        allErrors: true,
        validateSchema: false,
        validateFormats: false,
        addUsedSchema: false,
        code: { regExp: this.regExp as never },
      });
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}

const shared = new JsonSchemaChecker();

/** The problems of `value` against `schema` (see JsonSchemaChecker). */
export function validate(schema: unknown, value: unknown): Promise<SchemaProblem[]> {
  return shared.validate(schema, value);
}

/** "name: expected string; count: must be at most 100". */
export function describeProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
}

function dialectOf(schema: object): Dialect | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return '2020';
  if (typeof declared !== 'string') return undefined;
  return DIALECTS[declared.replace(/#$/, '')];
}

/**
 * Native RegExp for patterns that run in linear-ish time; an UncheckablePattern-throwing matcher
 * for the rest. Catastrophic backtracking needs a repeated group whose body can match the same
 * text in more than one way (a quantifier or an alternation inside it), or a backreference.
 */
export function boundedRegExp(pattern: string, flags: string): RegExpLike {
  if (mayBacktrackCatastrophically(pattern)) {
    return {
      test: () => {
        throw new UncheckablePattern(pattern);
      },
    };
  }
  return new RegExp(pattern, flags);
}

export function mayBacktrackCatastrophically(pattern: string): boolean {
  if (/\\[1-9]|\\k</.test(pattern)) return true;
  // For each open group: whether its body so far holds a quantifier or an alternation.
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') {
      groups.push(false);
      // `(?:`, `(?=`, `(?<name>` …: the `?` says what kind of group, it repeats nothing.
      if (pattern[i + 1] === '?') i += 2;
    }
    else if (ch === ')') {
      const risky = groups.pop() ?? false;
      const next = pattern[i + 1];
      const repeated = next === '*' || next === '+' || (next === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i + 1)) && !/^\{(\d+),\1\}/.test(pattern.slice(i + 1)));
      if (risky && repeated) return true;
      // What this group held makes its parent's body ambiguous too.
      if (groups.length > 0 && (risky || repeated)) groups[groups.length - 1] = true;
    } else if ((ch === '*' || ch === '+' || ch === '?' || ch === '{' || ch === '|') && groups.length > 0) {
      groups[groups.length - 1] = true;
    }
  }
  return false;
}

const COMPARISONS: Record<string, string> = { '<=': 'at most', '>=': 'at least', '<': 'less than', '>': 'greater than' };

function toProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    const problem = toProblem(error);
    if (!problem) continue;
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
    if (problems.length === MAX_PROBLEMS) break;
  }
  return problems;
}

function toProblem(error: ErrorObject): SchemaProblem | undefined {
  const path = readablePath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: join(path, String(params.missingProperty)), message: 'is required but missing' };
    case 'additionalProperties':
      return { path: join(path, String(params.additionalProperty)), message: 'is not a field the schema allows' };
    case 'type':
      return { path, message: `expected ${String(params.type).replace(/,/g, ' or ')}` };
    case 'enum':
      return { path, message: `expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'const':
      return { path, message: `expected ${JSON.stringify(params.allowedValue)}` };
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return { path, message: `expected a number ${COMPARISONS[String(params.comparison)] ?? String(params.comparison)} ${String(params.limit)}` };
    case 'if':
      // Reported through the failing branch's own errors.
      return undefined;
    default:
      return { path, message: error.message ?? `fails "${error.keyword}"` };
  }
}

/** `/items/0/name` → `items[0].name`. */
function readablePath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : join(out, part)), '');
}

function join(parent: string, field: string): string {
  return parent ? `${parent}.${field}` : field;
}
