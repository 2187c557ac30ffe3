/** A tool definition as the pages use it; the catalog carries raw MCP objects (untrusted). */
export interface ToolItem {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

export function asTool(raw: Readonly<Record<string, unknown>>): ToolItem | undefined {
  if (typeof raw.name !== 'string' || !raw.name) return undefined;
  const annotations = typeof raw.annotations === 'object' && raw.annotations !== null ? (raw.annotations as Record<string, unknown>) : undefined;
  const title = typeof raw.title === 'string' && raw.title ? raw.title : typeof annotations?.title === 'string' ? annotations.title : undefined;
  return {
    name: raw.name,
    ...(title ? { title } : {}),
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: raw.inputSchema,
    ...(annotations ? { annotations } : {}),
  };
}
