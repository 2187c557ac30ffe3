import { ROUTES, hrefFor, type RouteId } from './routes';

export function Nav({ current }: { readonly current: RouteId }) {
  return (
    <nav className="nav" aria-label="Main">
      <ul>
        {ROUTES.map((route) => (
          <li key={route.id}>
            <a
              className="nav__link"
              href={hrefFor(route.id)}
              aria-current={route.id === current ? 'page' : undefined}
            >
              {route.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
