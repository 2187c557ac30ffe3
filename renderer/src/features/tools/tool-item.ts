import type { ToolChangeView } from '../../../../preload/contract';

/** How a tool changed since the person approved it is marked (rows, cards, the palette). */
export const CHANGED_LABEL = 'changed since you approved it';

/** A tool changed since the person approved it: what differs, as the consent dialog shows it. */
export interface ToolChange {
  readonly changed: readonly string[];
  readonly before: unknown;
  readonly after: unknown;
}

/** A tool definition as the pages use it; the catalog carries raw MCP objects (untrusted). */
export interface ToolItem {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Set when the server changed it since the person approved it (the model still sees the approved one). */
  readonly change?: ToolChange;
}

/** `changes`: the catalog's toolChanges, so a changed tool carries its diff. */
export function asTool(raw: Readonly<Record<string, unknown>>, changes?: readonly ToolChangeView[]): ToolItem | undefined {
  if (typeof raw.name !== 'string' || !raw.name) return undefined;
  const annotations = typeof raw.annotations === 'object' && raw.annotations !== null ? (raw.annotations as Record<string, unknown>) : undefined;
  const title = typeof raw.title === 'string' && raw.title ? raw.title : typeof annotations?.title === 'string' ? annotations.title : undefined;
  return {
    name: raw.name,
    ...(title ? { title } : {}),
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: raw.inputSchema,
    ...(annotations ? { annotations } : {}),
    ...changeOf(raw, changes),
  };
}

function changeOf(raw: Readonly<Record<string, unknown>>, changes: readonly ToolChangeView[] | undefined): { change?: ToolChange } {
  const found = changes?.find((c) => c.tool === raw.name);
  if (!found) return {};
  const after: Record<string, unknown> = {};
  for (const field of ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']) if (raw[field] !== undefined) after[field] = raw[field];
  return { change: { changed: found.changed, before: found.approved, after } };
}
