import { useCallback } from 'react';
import { usePersisted } from '../../lib/persisted';

/**
 * The item open on a catalog page (a tool, a resource, a prompt), by server and name, kept across
 * reloads. One per page across all servers: opening one in a server's group closes the other.
 */
export function useSelection(page: 'tools' | 'resources' | 'prompts', server: string): readonly [string | undefined, (name: string | undefined) => void] {
  const [picked, setPicked] = usePersisted<{ readonly server: string; readonly name: string } | null>(`${page}.selected`, null);
  const mine = picked?.server === server ? picked.name : undefined;
  const select = useCallback((name: string | undefined) => setPicked(name === undefined ? null : { server, name }), [server, setPicked]);
  return [mine, select] as const;
}
