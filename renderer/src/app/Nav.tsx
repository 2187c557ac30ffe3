import { ServerHealthIndicator } from '../features/servers/ServerHealthIndicator';
import { ROUTES, hrefFor, type RouteId } from './routes';

export function Nav({ current }: { readonly current: RouteId }) {
  return (
    <nav className="nav" aria-label="Main">
      <ul>
        {ROUTES.map((route) => (
          <li key={route.id} className="nav__item">
            <a
              className="nav__link"
              href={hrefFor(route.id)}
              aria-current={route.id === current ? 'page' : undefined}
            >
              {route.label}
            </a>
            {/* The servers' health: failed ones, and ones waiting for the person. */}
            {route.id === 'servers' ? <ServerHealthIndicator /> : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
