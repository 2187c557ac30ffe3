import type { Tool } from '@modelcontextprotocol/client';
import type { ApiShape } from './protocol';
import { withDefaultsOptional } from '../tools/required-defaults';

/**
 * TypeScript declarations of the script API, generated from each tool's inputSchema and
 * outputSchema, compact (one line per tool where the schema allows) because the model reads them
 * on every request. Covers the JSON Schema a tool's schema uses in practice — types, properties
 * and required, enums and consts, arrays and tuples, anyOf/oneOf/allOf, additionalProperties,
 * local $refs — and says `unknown` for anything else rather than guessing.
 */

const MAX_DEPTH = 8;
const MAX_DESCRIPTION = 600;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/u;

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property or member name as TypeScript accepts it. */
export function memberName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Server text inside a /** comment: one line, cut, and unable to close the comment early. */
function comment(text: unknown): string {
  if (typeof text !== 'string') return '';
  const line = text.replace(/\s+/gu, ' ').trim().replace(/\*\//gu, '*\\/');
  if (!line) return '';
  return `/** ${line.length > MAX_DESCRIPTION ? `${line.slice(0, MAX_DESCRIPTION - 1)}…` : line} */ `;
}

function resolveRef(ref: string, root: Schema): unknown {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/u.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]!];
  return isObject(defs) ? defs[decodeURIComponent(match[2]!).replace(/~1/gu, '/').replace(/~0/gu, '~')] : undefined;
}

const needsParens = (type: string) => /[|&]/u.test(type) && !/^[[{(]/u.test(type);

function union(types: string[], joiner: ' | ' | ' & '): string {
  const unique = [...new Set(types)];
  if (unique.length === 0) return 'unknown';
  if (unique.includes('unknown') && joiner === ' | ') return 'unknown';
  return unique.length === 1 ? unique[0]! : unique.map((t) => (needsParens(t) ? `(${t})` : t)).join(joiner);
}

function objectType(schema: Schema, root: Schema, depth: number): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const members = Object.entries(properties).map(
    ([name, property]) => `${comment(isObject(property) ? property.description : undefined)}${memberName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, root, depth + 1)}`,
  );
  const extra = schema.additionalProperties;
  if (isObject(extra)) members.push(`[key: string]: ${typeOf(extra, root, depth + 1)}`);
  else if (members.length === 0 && extra !== false) return 'Record<string, unknown>';
  return members.length === 0 ? '{}' : `{ ${members.join('; ')} }`;
}

function arrayType(schema: Schema, root: Schema, depth: number): string {
  if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((s) => typeOf(s, root, depth + 1)).join(', ')}]`;
  const item = schema.items === undefined ? 'unknown' : typeOf(schema.items, root, depth + 1);
  return needsParens(item) ? `(${item})[]` : `${item}[]`;
}

function singleType(type: unknown, schema: Schema, root: Schema, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, root, depth);
    case 'object':
      return objectType(schema, root, depth);
    default:
      return 'unknown';
  }
}

/** The TypeScript type a JSON Schema describes. */
export function typeOf(schema: unknown, root: Schema = isObject(schema) ? schema : {}, depth = 0): string {
  if (schema === false) return 'never';
  if (!isObject(schema) || depth > MAX_DEPTH) return 'unknown';
  if (typeof schema.$ref === 'string') return typeOf(resolveRef(schema.$ref, root), root, depth + 1);
  if ('const' in schema) return JSON.stringify(schema.const) ?? 'unknown';
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v) ?? 'unknown'), ' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return union(options.map((s) => typeOf(s, root, depth + 1)), ' | ');
  }
  if (Array.isArray(schema.allOf)) return union(schema.allOf.map((s) => typeOf(s, root, depth + 1)), ' & ');
  if (Array.isArray(schema.type)) return union(schema.type.map((t) => singleType(t, schema, root, depth)), ' | ');
  if (schema.type !== undefined) return singleType(schema.type, schema, root, depth);
  if (isObject(schema.properties)) return objectType(schema, root, depth);
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return arrayType(schema, root, depth);
  return 'unknown';
}

/** `name(args: {…}): Promise<…>` — args optional when nothing is required. Without an outputSchema the result is `any` (text, or JSON if the tool sends it). */
function signature(tool: Tool, name: string): string {
  // A required property with a default may be left out (the server fills it in): optional here too.
  const defaultsOptional = withDefaultsOptional(tool.inputSchema);
  const input: Schema = isObject(defaultsOptional) ? defaultsOptional : {};
  const required = Array.isArray(input.required) && input.required.length > 0;
  const args = typeOf({ ...input, type: 'object' }, input);
  const output = isObject(tool.outputSchema) ? typeOf(tool.outputSchema, tool.outputSchema) : 'any';
  return `${name}(args${required ? '' : '?'}: ${args}): Promise<${output}>`;
}

export interface ApiTool {
  readonly server: string;
  readonly tool: Tool;
}

/** Servers and their tool names, in the order given: what the script's `tools` object holds. */
export function apiShapeOf(tools: readonly ApiTool[]): ApiShape {
  const shape: Record<string, string[]> = {};
  for (const { server, tool } of tools) (shape[server] ??= []).push(tool.name);
  return shape;
}

/** The whole API as one declaration: `declare const tools: { server: { tool(args): Promise<…> } }`. */
export function declareApi(tools: readonly ApiTool[]): string {
  const byServer = new Map<string, Tool[]>();
  for (const { server, tool } of tools) byServer.set(server, [...(byServer.get(server) ?? []), tool]);
  const lines = ['declare const tools: {'];
  for (const [server, serverTools] of byServer) {
    lines.push(`  ${memberName(server)}: {`);
    for (const tool of serverTools) {
      const about = comment(tool.description ?? tool.title);
      if (about) lines.push(`    ${about.trimEnd()}`);
      lines.push(`    ${signature(tool, memberName(tool.name))};`);
    }
    lines.push('  };');
  }
  lines.push('};');
  return lines.join('\n');
}

/** How a script calls one tool, with its types: `tools.notes.search(args: {…}): Promise<…>` (for tool search results). */
export function declareCall(server: string, tool: Tool): string {
  return signature(tool, pathOf(server, tool.name));
}

/** A script path for a tool: tools.server.tool, or tools["my server"]["get.sum"]. */
function pathOf(server: string, tool: string): string {
  return `tools${IDENTIFIER.test(server) ? `.${server}` : `[${JSON.stringify(server)}]`}${IDENTIFIER.test(tool) ? `.${tool}` : `[${JSON.stringify(tool)}]`}`;
}

/**
 * The API when the tools are also offered directly ("auto"): their arguments are already in the
 * model's tool definitions, so only what a script needs beyond them is said — how an offered name
 * maps to a script path (the rule, plus each name the rule does not give), and the result type of
 * each tool that declares one.
 */
export function describeBesideTools(tools: readonly (ApiTool & { readonly exposedName: string })[]): string {
  const first = tools[0];
  const lines = [
    first
      ? `Each tool offered above is also a function here, with the same arguments: ${first.exposedName} is ${pathOf(first.server, first.tool.name)}.`
      : 'The tools offered above are also functions here, with the same arguments.',
  ];
  const renamed = tools.filter((t) => t.exposedName !== `${t.server}__${t.tool.name}`).map((t) => `${t.exposedName} is ${pathOf(t.server, t.tool.name)}`);
  if (renamed.length > 0) lines.push(`Names that differ: ${renamed.join('; ')}.`);
  const results = tools.filter((t) => isObject(t.tool.outputSchema)).map((t) => `${pathOf(t.server, t.tool.name)} → ${typeOf(t.tool.outputSchema, t.tool.outputSchema as Schema)}`);
  lines.push(results.length > 0 ? `Results (the others resolve to text): ${results.join('; ')}` : 'Each resolves to its text.');
  return lines.join('\n');
}
