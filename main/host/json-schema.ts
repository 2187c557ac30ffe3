import type { JsonSchemaType, JsonSchemaValidator as SdkValidator, jsonSchemaValidator as SdkValidatorProvider } from '@modelcontextprotocol/client';
import { Ajv as SdkAjv, addFormats as sdkAddFormats } from '@modelcontextprotocol/client/validators/ajv';
import type * as AjvFormatsModule from 'ajv-formats';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import type * as Ajv2019Module from 'ajv/dist/2019.js';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import type * as Re2Module from 're2js';
import type { RE2JS } from 're2js';
import type { InterpretedCheck, SchemaInterpreter } from './interpreted-schema';
import { describeErrors, type SchemaProblem } from './schema-problems';

/**
 * Harbor's one JSON Schema validator, for every schema a server hands us: the form an elicitation
 * asks for, a tool's inputSchema, a tool's outputSchema. A real validator (Ajv, the engine the
 * SDK uses), with the dialect the schema declares (2020-12 when it declares none, as MCP says).
 *
 * Server schemas are untrusted, and so is their `pattern` regex: a backtracking engine lets a
 * server freeze the host with `^(a+)+$` and "aaa…a!" (seconds to hours of the main process, every
 * server and window waiting). Patterns therefore run on a linear-time engine (RE2, pure JS) by
 * default. Why RE2 and not a worker with a deadline or skipping `pattern`: RE2 keeps the check,
 * stays synchronous (the SDK's validator interface is synchronous) and needs no native module.
 * What RE2 cannot express — lookaround and backreferences, exactly the features that need
 * backtracking — is not checked: such a pattern accepts every string, while the rest of the schema
 * is still checked. Callers may pass another `regex` engine (the bounded-regex policy hook).
 */

export type SchemaCheck =
  /** `value` is a copy, with the schema's defaults filled in when asked for. `unchecked` says why nothing was checked. */
  | { readonly valid: true; readonly value: unknown; readonly unchecked?: string }
  | { readonly valid: false; readonly problems: readonly SchemaProblem[] };

/** Builds a matcher for a schema's `pattern` / `patternProperties`. */
export type RegexEngine = (source: string, flags: string) => { test(input: string): boolean };

export interface JsonSchemaValidatorOptions {
  readonly regex?: RegexEngine;
  /** Compiled schemas kept (servers send the same schemas again and again). */
  readonly cacheSize?: number;
  /**
   * Absent (default): every schema is compiled by Ajv, which pays back over the many calls of a
   * long-lived Host. Given (a one-shot command, which checks each schema once or twice): a value
   * is first checked by interpreting the schema (interpreted-schema.ts), and Ajv compiles only to
   * word a refusal or for a schema the interpreter must not run (patterns, formats).
   */
  readonly interpreter?: SchemaInterpreter;
}

export interface ValidateOptions {
  /** Fill in the `default` of missing properties before checking (the copy returned gets them). */
  readonly applyDefaults?: boolean;
  /**
   * Whether `format` refuses a value (default true: a form's email field must hold an address).
   * False treats formats as annotations, as JSON Schema 2020-12 does by default — for tool
   * arguments, where Harbor must never refuse what the server itself would accept.
   */
  readonly assertFormats?: boolean;
}

const ACCEPTS_EVERYTHING = { test: () => true };

type EngineClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;
type OwnDialect = Exclude<Dialect, 'draft-07'>;

const requireCjs = createRequire(import.meta.url);
const engineClasses = new Map<OwnDialect, EngineClass>();
let addFormats: ((ajv: Ajv) => Ajv) | undefined;
let re2: typeof RE2JS | undefined;

/**
 * Each piece of Ajv and RE2 is loaded when the first schema needs it: a command that checks none
 * (`harbor tools` of servers without output schemas, `info`, `--help`) never pays for them, and
 * one that does loads its dialect's class alone, ajv-formats only where formats are asserted and
 * RE2 only for a pattern (#32: about 20 ms of CPU and 2.5 MB of a `harbor call`). Loaded with
 * `require` (all of them ship CommonJS) because checking is synchronous, as the SDK's validator
 * interface is.
 *
 * draft-07 (and draft-06) — what every server built on zod-to-json-schema declares — is checked
 * with the Ajv class and ajv-formats the SDK client bundles and has already loaded (the SDK
 * re-exports them for this): no second copy of Ajv to load and compile (#32, `harbor call` on
 * server-memory). The SDK does not re-export its 2020-12 and 2019-09 classes, so those come from
 * Harbor's own ajv. Each engine takes the formats plugin of its own copy: ajv-formats builds code
 * with its Ajv's code generator, which another copy's does not accept.
 */
interface EngineKit {
  readonly Engine: EngineClass;
  readonly addFormats: (ajv: Ajv) => Ajv;
}

function engineKit(dialect: Dialect): EngineKit {
  if (dialect === 'draft-07') return { Engine: SdkAjv as unknown as EngineClass, addFormats: sdkAddFormats as unknown as (ajv: Ajv) => Ajv };
  let found = engineClasses.get(dialect);
  if (!found) {
    found = dialect === '2020-12' ? (requireCjs('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020 : (requireCjs('ajv/dist/2019.js') as typeof Ajv2019Module).Ajv2019;
    engineClasses.set(dialect, found);
  }
  return { Engine: found, addFormats: ownFormats };
}

function ownFormats(engine: Ajv): Ajv {
  addFormats ??= (requireCjs('ajv-formats') as { default: typeof AjvFormatsModule.default }).default as (ajv: Ajv) => Ajv;
  return addFormats(engine);
}

function re2js(): typeof RE2JS {
  re2 ??= (requireCjs('re2js') as typeof Re2Module).RE2JS;
  return re2;
}

/**
 * The default regex policy: RE2 (linear time, no backtracking), JS syntax translated first. JSON
 * Schema patterns are unanchored searches, as RE2's `test` is. A pattern RE2 cannot run (or would
 * compile to a huge program) accepts every string (see the file comment).
 */
export const linearTimeRegex: RegexEngine = (source) => {
  let compiled: RE2JS;
  try {
    const RE2JS = re2js();
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch {
    return ACCEPTS_EVERYTHING;
  }
  return { test: (input) => compiled.test(input) };
};

type Dialect = '2020-12' | '2019-09' | 'draft-07';
interface EngineFlags {
  readonly applyDefaults: boolean;
  readonly assertFormats: boolean;
}
const flagsKey = (flags: EngineFlags) => `${flags.applyDefaults ? 'defaults' : ''}|${flags.assertFormats ? 'formats' : ''}`;
type Compiled = { readonly validate: ValidateFunction; readonly engine: Ajv } | { readonly unchecked: string };

const DEFAULT_CACHE_SIZE = 256;

export class JsonSchemaValidator {
  private readonly engines = new Map<string, Ajv>();
  private readonly compiled = new Map<string, Compiled>();
  private readonly regex: RegexEngine;
  private readonly cacheSize: number;
  private readonly interpreter: SchemaInterpreter | undefined;

  constructor(options: JsonSchemaValidatorOptions = {}) {
    this.regex = options.regex ?? linearTimeRegex;
    this.cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
    this.interpreter = options.interpreter;
  }

  /**
   * The same checks in the shape the SDK client takes (its `jsonSchemaValidator` option): it asks
   * for each listed tool's outputSchema validator at the first callTool and checks every
   * structuredContent with it. Messages are Ajv's own, as the SDK's default validator gives them; an
   * unknown dialect is an error when asked, not a guess. A schema is compiled when its validator
   * first runs: a one-shot `harbor call` checks one tool's result, and compiling every listed tool's
   * schema (and building Ajv's engine for them) was ~30 ms of its CPU on a nine-tool server.
   */
  forSdk(): SdkValidatorProvider {
    return {
      getValidator: <T>(schema: JsonSchemaType): SdkValidator<T> => {
        const declared = (schema as { $schema?: unknown }).$schema;
        if (!dialectOf(declared)) throw new Error(`The schema declares an unsupported JSON Schema dialect ("$schema": ${JSON.stringify(declared).slice(0, 200)}); Harbor validates 2020-12, 2019-09, draft-07 and draft-06.`);
        let check: SdkValidator<T> | undefined;
        return (input) => (check ??= this.sdkValidator<T>(schema))(input);
      },
    };
  }

  private sdkValidator<T>(schema: JsonSchemaType): SdkValidator<T> {
    const interpreted = this.interpreted(schema as Record<string, unknown>, false);
    const compiled = () => this.compiledSdkValidator<T>(schema);
    return interpreted ? interpretedFirst(interpreted, (input) => ({ valid: true, data: input as T, errorMessage: undefined }), compiled) : compiled();
  }

  private compiledSdkValidator<T>(schema: JsonSchemaType): SdkValidator<T> {
    const compiled = this.compile(schema as Record<string, unknown>, { applyDefaults: false, assertFormats: true });
    // A schema Ajv cannot compile (a bad $ref, say) is not checked, as when it was compiled eagerly.
    if ('unchecked' in compiled) return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
    const { validate, engine } = compiled;
    return (input) => (validate(input) ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) });
  }

  /** Checks `value` against `schema`; never throws (a schema that cannot be compiled is reported as unchecked). */
  validate(schema: unknown, value: unknown, options: ValidateOptions = {}): SchemaCheck {
    return this.prepare(schema, options)(value);
  }

  /**
   * `validate` with the schema compiled once, for a caller that checks many values against one
   * schema object (a tool's inputSchema on every call): no lookup keyed by the schema's JSON text.
   */
  prepare(schema: unknown, options: ValidateOptions = {}): (value: unknown) => SchemaCheck {
    // Only filling in defaults changes the value: then the caller's value is left as it was.
    const applyDefaults = options.applyDefaults === true;
    const copyOf = (value: unknown) => (applyDefaults && value !== undefined ? structuredClone(value) : value);
    if (schema === true || schema === undefined) return (value) => ({ valid: true, value: copyOf(value) });
    if (schema === false) return () => ({ valid: false, problems: [{ path: '', message: 'is not allowed by the schema' }] });
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return (value) => ({ valid: true, value: copyOf(value), unchecked: 'the schema is not a JSON object' });
    const flags = { applyDefaults, assertFormats: options.assertFormats !== false };
    const interpreted = this.interpreted(schema as Record<string, unknown>, applyDefaults);
    const compiled = () => this.compiledCheck(schema as Record<string, unknown>, flags, copyOf);
    // Interpreted only without defaults, so the value needs no copy.
    return interpreted ? interpretedFirst(interpreted, (value) => ({ valid: true, value }), compiled) : compiled();
  }

  private compiledCheck(schema: Record<string, unknown>, flags: EngineFlags, copyOf: (value: unknown) => unknown): (value: unknown) => SchemaCheck {
    const compiled = this.compile(schema, flags);
    if ('unchecked' in compiled) return (value) => ({ valid: true, value: copyOf(value), unchecked: compiled.unchecked });
    const { validate } = compiled;
    return (value) => {
      const copy = copyOf(value);
      if (validate(copy)) return { valid: true, value: copy };
      return { valid: false, problems: describeErrors(validate.errors ?? []) };
    };
  }

  /** The interpreter's check, when this validator interprets and the schema is one it may run. */
  private interpreted(schema: Record<string, unknown>, applyDefaults: boolean): InterpretedCheck | undefined {
    if (!this.interpreter) return undefined;
    const dialect = dialectOf(schema.$schema);
    return dialect ? this.interpreter(JSON.stringify(schema), dialect, applyDefaults) : undefined;
  }

  private compile(schema: Record<string, unknown>, flags: EngineFlags): Compiled {
    const dialect = dialectOf(schema.$schema);
    if (!dialect) return { unchecked: `its dialect ${JSON.stringify(schema.$schema)} is not one Harbor knows` };
    const key = `${dialect}|${flagsKey(flags)}|${JSON.stringify(schema)}`;
    const cached = this.compiled.get(key);
    if (cached) return cached;
    let result: Compiled;
    try {
      // A fresh engine per schema that names itself ($id): two servers may reuse one id.
      const engine = typeof schema.$id === 'string' ? this.createEngine(dialect, flags) : this.engine(dialect, flags);
      result = { validate: engine.compile(schema), engine };
    } catch (error) {
      result = { unchecked: `the schema could not be compiled (${(error as Error).message})` };
    }
    if (this.compiled.size >= this.cacheSize) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, result);
    return result;
  }

  private engine(dialect: Dialect, flags: EngineFlags): Ajv {
    const key = `${dialect}|${flagsKey(flags)}`;
    let engine = this.engines.get(key);
    if (!engine) {
      engine = this.createEngine(dialect, flags);
      this.engines.set(key, engine);
    }
    return engine;
  }

  private createEngine(dialect: Dialect, flags: EngineFlags): Ajv {
    // Ajv keeps one compiled pattern per `toString()`: each must name its own source.
    const compile = (source: string, flags: string) => {
      const matcher = this.regex(source, flags);
      return { test: (input: string) => matcher.test(input), toString: () => `/${source}/${flags}` };
    };
    const regExp = Object.assign(compile, { code: 'harbor-regex-policy' }) satisfies RegExpEngine;
    const options: Options = {
      strict: false,
      allErrors: true,
      verbose: true,
      validateSchema: false,
      validateFormats: flags.assertFormats,
      useDefaults: flags.applyDefaults,
      logger: false,
      code: { regExp },
    };
    const kit = engineKit(dialect);
    const engine = new kit.Engine(options) as Ajv;
    // Formats as annotations (validateFormats false): Ajv ignores `format`, ajv-formats is not needed.
    return flags.assertFormats ? kit.addFormats(engine) : engine;
  }
}

/**
 * A check that asks the interpreter first: its "valid" is final; a refusal (or "cannot say")
 * goes to the compiled check, built on the first such value, whose verdict and words are Ajv's.
 */
function interpretedFirst<R>(interpreted: InterpretedCheck, accepted: (value: unknown) => R, compile: () => (value: unknown) => R): (value: unknown) => R {
  let compiled: ((value: unknown) => R) | undefined;
  return (value) => (interpreted(value) === true ? accepted(value) : (compiled ??= compile())(value));
}

function dialectOf(declared: unknown): Dialect | undefined {
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (/draft-0[67]/.test(declared)) return 'draft-07';
  return undefined;
}
