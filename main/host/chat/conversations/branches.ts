/**
 * A conversation's turns form a tree: each turn answers the turn before it (its parent), and an
 * edited or regenerated message starts a sibling of the turn it replaces. The person sees and
 * continues one branch at a time: the path from the first turn to the active one.
 */

export interface TurnNode {
  readonly id: string;
  readonly parentId: string | null;
}

/** Children of each turn (key null: the first turns), in the order given (oldest first). */
function childrenOf(turns: readonly TurnNode[]): Map<string | null, TurnNode[]> {
  const children = new Map<string | null, TurnNode[]>();
  for (const turn of turns) {
    const parent = turn.parentId !== null && turns.some((t) => t.id === turn.parentId) ? turn.parentId : null;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(turn);
  }
  return children;
}

/**
 * The branch from the first turn to `activeId`, oldest first. An unknown or missing active turn
 * falls back to the newest turn (`turns` are oldest first), so a conversation always shows.
 */
export function activePath(turns: readonly TurnNode[], activeId: string | null): TurnNode[] {
  const byId = new Map(turns.map((t) => [t.id, t]));
  let current = (activeId ? byId.get(activeId) : undefined) ?? turns.at(-1);
  const path: TurnNode[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId !== null ? byId.get(current.parentId) : undefined;
  }
  return path.reverse();
}

/** For each turn with siblings: the ids of the turns answering the same point, oldest first. */
export function siblingsOf(turns: readonly TurnNode[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const group of childrenOf(turns).values()) {
    if (group.length < 2) continue;
    const ids = group.map((t) => t.id);
    for (const id of ids) result.set(id, ids);
  }
  return result;
}

/** Where the branch through `turnId` ends when it is chosen: down its newest answers. */
export function newestLeaf(turns: readonly TurnNode[], turnId: string): string {
  const children = childrenOf(turns);
  let current = turnId;
  const seen = new Set<string>([current]);
  for (;;) {
    const next = children.get(current)?.at(-1);
    if (!next || seen.has(next.id)) return current;
    seen.add(next.id);
    current = next.id;
  }
}
