export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface PromptItem {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A prompt from the catalog (raw, untrusted MCP data) in the shape the page uses. */
export function asPrompt(raw: Readonly<Record<string, unknown>>): PromptItem | undefined {
  const name = text(raw.name);
  if (!name) return undefined;
  const args = Array.isArray(raw.arguments) ? raw.arguments : [];
  return {
    name,
    ...(text(raw.title) ? { title: text(raw.title)! } : {}),
    ...(text(raw.description) ? { description: text(raw.description)! } : {}),
    arguments: args.flatMap((a) => {
      if (typeof a !== 'object' || a === null) return [];
      const arg = a as Record<string, unknown>;
      const argName = text(arg.name);
      if (!argName) return [];
      return [{ name: argName, ...(text(arg.title) ? { title: text(arg.title)! } : {}), ...(text(arg.description) ? { description: text(arg.description)! } : {}), required: arg.required === true }];
    }),
  };
}
