import { Activity, BookOpen, FileText, ListChecks, MessageSquare, ScrollText, Server, Settings, Store, Wrench, type LucideIcon } from 'lucide-react';
import { ServerHealthIndicator } from '../features/servers/ServerHealthIndicator';
import { ROUTES, hrefFor, type RouteId } from './routes';

/** One icon per page, beside its name (the name stays the link's accessible name). */
const ICONS: Record<RouteId, LucideIcon> = {
  chat: MessageSquare,
  servers: Server,
  gallery: Store,
  tools: Wrench,
  resources: FileText,
  prompts: ScrollText,
  skills: BookOpen,
  tasks: ListChecks,
  activity: Activity,
  settings: Settings,
};

interface Props {
  readonly current: RouteId;
  readonly id?: string;
  /** Icons only: each name becomes the link's tooltip, and stays its accessible name (hidden text). */
  readonly rail?: boolean;
}

export function Nav({ current, id, rail = false }: Props) {
  return (
    <nav id={id} className="nav" aria-label="Main">
      <ul>
        {ROUTES.map((route) => {
          const Icon = ICONS[route.id];
          return (
            <li key={route.id} className="nav__item">
              <a className="nav__link" href={hrefFor(route.id)} aria-current={route.id === current ? 'page' : undefined} title={rail ? route.label : undefined}>
                <Icon className="nav__icon" size={16} strokeWidth={1.75} aria-hidden="true" focusable="false" />
                <span className={rail ? 'visually-hidden' : undefined}>{route.label}</span>
              </a>
              {/* The servers' health: failed ones, and ones waiting for the person. */}
              {route.id === 'servers' ? <ServerHealthIndicator /> : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
