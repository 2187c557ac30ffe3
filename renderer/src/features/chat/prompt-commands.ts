import type { HarborApi } from '../../../../preload/contract';

export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A server's prompt as a slash command: `/server.prompt`. */
export interface PromptCommand {
  readonly command: string;
  readonly server: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

/** The prompts of the connected servers that offer any (servers' own words, kept as text). */
export async function loadPromptCommands(api: HarborApi): Promise<PromptCommand[]> {
  const servers = await api.servers.list({});
  if (!servers.ok) return [];
  const withPrompts = servers.value.filter((s) => s.enabled && s.state.kind === 'ready' && s.counts.prompts > 0);
  const catalogs = await Promise.all(withPrompts.map((s) => api.catalog.get({ name: s.name })));
  const out: PromptCommand[] = [];
  for (const catalog of catalogs) {
    if (!catalog.ok) continue;
    for (const prompt of catalog.value.prompts) {
      const name = text(prompt.name);
      if (!name) continue;
      const args = Array.isArray(prompt.arguments) ? (prompt.arguments as unknown[]) : [];
      const title = text(prompt.title);
      const description = text(prompt.description);
      out.push({
        command: `/${catalog.value.server}.${name}`,
        server: catalog.value.server,
        name,
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
        arguments: args.flatMap((a) => {
          if (typeof a !== 'object' || a === null) return [];
          const arg = a as Record<string, unknown>;
          const argName = text(arg.name);
          if (!argName) return [];
          const argTitle = text(arg.title);
          const argDescription = text(arg.description);
          return [{ name: argName, required: arg.required === true, ...(argTitle ? { title: argTitle } : {}), ...(argDescription ? { description: argDescription } : {}) }];
        }),
      });
    }
  }
  return out.sort((a, b) => a.command.localeCompare(b.command));
}

/** Commands matching what follows the "/" (prefix of server.prompt first, then anywhere in it). */
export function matchCommands(commands: readonly PromptCommand[], typed: string): PromptCommand[] {
  const query = typed.replace(/^\//, '').toLowerCase();
  const starts = commands.filter((c) => c.command.slice(1).toLowerCase().startsWith(query) || c.name.toLowerCase().startsWith(query));
  const contains = commands.filter((c) => !starts.includes(c) && c.command.toLowerCase().includes(query));
  return [...starts, ...contains];
}

/**
 * A rendered prompt as the text of the person's next message: each message's text, the model's
 * lines marked as such, embedded resources by their text. The person reads it before sending.
 */
export function promptText(result: Record<string, unknown>): string {
  const messages = Array.isArray(result.messages) ? (result.messages as unknown[]) : [];
  return messages
    .map((m) => {
      if (typeof m !== 'object' || m === null) return '';
      const { role, content } = m as { role?: unknown; content?: unknown };
      const c = (typeof content === 'object' && content !== null ? content : {}) as Record<string, unknown>;
      let body: string;
      if (c.type === 'text') body = typeof c.text === 'string' ? c.text : '';
      else if (c.type === 'resource') {
        const r = (typeof c.resource === 'object' && c.resource !== null ? c.resource : {}) as Record<string, unknown>;
        body = typeof r.text === 'string' ? r.text : `[resource ${String(r.uri ?? '')}]`;
      } else body = `[${String(c.type ?? 'content')}]`;
      return role === 'assistant' ? `Assistant: ${body}` : body;
    })
    .filter(Boolean)
    .join('\n\n');
}
