import { useCallback, useSyncExternalStore } from 'react';
import { usePersisted } from '../lib/persisted';

/** At or below this window width the navigation is an icon rail unless the person chose otherwise. */
export const RAIL_BY_DEFAULT_QUERY = '(max-width: 800px)';

type Choice = 'rail' | 'full' | null;

function subscribeNarrow(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const media = matchMedia(RAIL_BY_DEFAULT_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return typeof matchMedia === 'function' && matchMedia(RAIL_BY_DEFAULT_QUERY).matches;
}

/**
 * Whether the navigation shows as an icon rail, and a toggle. The person's last choice is kept
 * across reloads; until they make one, a narrow window gets the rail (the page needs the room).
 */
export function useNavCollapsed(): readonly [boolean, () => void] {
  const [choice, setChoice] = usePersisted<Choice>('nav.collapsed', null);
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow);
  const collapsed = choice === null ? narrow : choice === 'rail';
  const toggle = useCallback(() => setChoice(collapsed ? 'full' : 'rail'), [collapsed, setChoice]);
  return [collapsed, toggle] as const;
}
