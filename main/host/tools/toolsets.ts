import { HarborError } from '../errors';

/**
 * A toolset: a named list of the tools a conversation may offer the model, from the registry's
 * `"toolsets": {"NAME": ["SERVER/TOOL", "SERVER/*", …]}`. Entries are matched whole (never split
 * at a "/"), so a server or tool name that holds a "/" is still matched exactly.
 */
export interface Toolset {
  readonly name: string;
  readonly entries: readonly string[];
}

/** Whether a server's tool is in the toolset: "SERVER/TOOL" names it, "SERVER/*" takes all of the server's. */
export function inToolset(toolset: Toolset, server: string, tool: string): boolean {
  return toolset.entries.some((entry) => entry === `${server}/${tool}` || entry === `${server}/*`);
}

/**
 * The toolset called `name` in the registry's toolsets; an unknown name is refused, naming the
 * known ones (the CLI's exit 2: it is the person's input that is wrong).
 */
export function resolveToolset(toolsets: Readonly<Record<string, readonly string[]>>, name: string): Toolset {
  const entries = Object.hasOwn(toolsets, name) ? toolsets[name] : undefined;
  if (!entries) {
    const known = Object.keys(toolsets);
    throw new HarborError(
      'BAD_REQUEST',
      `There is no toolset named "${name}". ${known.length > 0 ? `Known toolsets: ${known.join(', ')}.` : 'No toolsets are defined: add them to "toolsets" in harbor.json.'}`,
    );
  }
  return { name, entries };
}
