import MiniSearch from 'minisearch';

/** The palette's groups, in the order they show. */
export const PALETTE_GROUPS = ['Servers', 'Tools', 'Resources', 'Prompts', 'Conversations', 'Settings sections', 'Views', 'Commands'] as const;
export type PaletteGroup = (typeof PALETTE_GROUPS)[number];

/** One thing the palette can find and open. */
export interface PaletteItem {
  /** Unique among the palette's items (e.g. "tool:feature/echo"). */
  readonly id: string;
  readonly group: PaletteGroup;
  readonly title: string;
  /** A second line: the server it belongs to, a description. */
  readonly detail?: string;
  /** Words that find it without being shown. */
  readonly keywords?: string;
  readonly shortcuts?: readonly string[];
  readonly run: () => void;
}

export interface PaletteSection {
  readonly group: PaletteGroup;
  readonly items: readonly PaletteItem[];
}

/** How many items one group shows: the palette is a way to jump, not a list to scroll. */
export const PER_GROUP = 8;

/**
 * The palette's index: MiniSearch over title, detail and keywords, by word prefix and with typos
 * forgiven (one edit in five characters), so "ech" and "ecoh" both find "echo".
 */
export class PaletteIndex {
  private readonly search: MiniSearch<PaletteItem>;
  private readonly byId: ReadonlyMap<string, PaletteItem>;

  constructor(private readonly items: readonly PaletteItem[]) {
    this.byId = new Map(items.map((item) => [item.id, item]));
    this.search = new MiniSearch<PaletteItem>({
      fields: ['title', 'detail', 'keywords', 'group'],
      idField: 'id',
      searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 3, group: 0.5 }, combineWith: 'AND' },
    });
    // One entry per id (MiniSearch refuses a duplicate): a later item of the same id wins.
    this.search.addAll([...this.byId.values()]);
  }

  /**
   * The matches grouped in palette order, best first within a group, at most PER_GROUP each.
   * An empty query lists each group's first items as given.
   */
  find(query: string): PaletteSection[] {
    const found = query.trim() ? this.search.search(query).flatMap((hit) => this.byId.get(String(hit.id)) ?? []) : this.items;
    return PALETTE_GROUPS.map((group) => ({ group, items: found.filter((item) => item.group === group).slice(0, PER_GROUP) })).filter(
      (section) => section.items.length > 0,
    );
  }
}
