import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { canonical } from '../canonical-json';

/** The parts of a tool definition a person approves: change any of them and they are asked again. */
export const FINGERPRINTED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
export type FingerprintedField = (typeof FINGERPRINTED_FIELDS)[number];

export type ToolDefinition = Pick<Tool, FingerprintedField>;

/** Just the approved parts, in a stable shape (absent fields stay absent). */
export function definitionOf(tool: Tool): ToolDefinition {
  const out: Record<string, unknown> = {};
  for (const field of FINGERPRINTED_FIELDS) if (tool[field] !== undefined) out[field] = tool[field];
  return out as ToolDefinition;
}

/**
 * A stable hash of what the person saw: canonical JSON (sorted keys, no whitespace) of name,
 * title, description, inputSchema, outputSchema and annotations. Key order and formatting do not
 * change it; any change of content — the description alone included — does.
 */
export function fingerprintTool(tool: Tool | ToolDefinition): string {
  // Catalog entries are replaced, never mutated, on refresh: a tool object's hash never changes.
  let hash = memo.get(tool);
  if (hash === undefined) {
    hash = createHash('sha256').update(canonical(definitionOf(tool as Tool))).digest('hex');
    memo.set(tool, hash);
  }
  return hash;
}

const memo = new WeakMap<object, string>();

/** Which approved fields differ between two definitions, e.g. ["description"]. */
export function changedFields(before: ToolDefinition, after: ToolDefinition): FingerprintedField[] {
  return FINGERPRINTED_FIELDS.filter((field) => canonical(before[field]) !== canonical(after[field]));
}
