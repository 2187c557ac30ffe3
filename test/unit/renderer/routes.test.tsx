// @vitest-environment happy-dom
/**
 * The renderer's one router (app/routes.ts, app/use-route.ts): the page, a server on the Servers
 * page and a Settings section all come from the same hash and follow it as it changes; hrefs round
 * trip through the parser, whatever a server is called.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { detailFromHash, hrefFor, routeFromHash } from '../../../renderer/src/app/routes';
import { isCurrent, navigate, useRoute, useRouteDetail } from '../../../renderer/src/app/use-route';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

describe('routes', () => {
  it('reads the page and what is named under it, and anything else is the Chat page', () => {
    expect(routeFromHash('#/servers/files')).toBe('servers');
    expect(routeFromHash('#/settings')).toBe('settings');
    expect(routeFromHash('#/nowhere')).toBe('chat');
    expect(routeFromHash('')).toBe('chat');
    expect(routeFromHash('#token=abc')).toBe('chat');
    expect(detailFromHash('#/settings/timeouts', 'settings')).toBe('timeouts');
    expect(detailFromHash('#/settings/timeouts', 'servers')).toBeUndefined();
    expect(detailFromHash('#/servers', 'servers')).toBeUndefined();
    expect(detailFromHash('#/servers/%E0%A4%A', 'servers')).toBeUndefined(); // malformed escape
  });

  it('builds hrefs that read back to the same name, slashes, spaces and "?" included', () => {
    for (const name of ['files', 'a/b', 'my server?', 'ünï côde', '%41']) {
      const href = hrefFor('servers', name);
      expect(routeFromHash(href)).toBe('servers');
      expect(detailFromHash(href, 'servers')).toBe(name);
    }
    expect(hrefFor('settings')).toBe('#/settings');
    expect(hrefFor('servers', 'a/b')).toBe('#/servers/a%2Fb');
  });
});

function Where() {
  const route = useRoute();
  const server = useRouteDetail('servers');
  const section = useRouteDetail('settings');
  return <p data-testid="where">{[route, server ?? '-', section ?? '-'].join(' ')}</p>;
}

/** The hash changes and `hashchange` fires later (a task): wait for the rendering to follow. */
async function go(href: string): Promise<void> {
  const changed = new Promise<void>((resolve) => window.addEventListener('hashchange', () => resolve(), { once: true }));
  navigate(href);
  await act(() => changed);
}

describe('use-route', () => {
  it('every reader follows the same address as it changes, and navigate goes there', async () => {
    window.location.hash = '#/settings/about';
    render(<Where />);
    expect(screen.getByTestId('where').textContent).toBe('settings - about');
    await go(hrefFor('servers', 'a/b'));
    expect(screen.getByTestId('where').textContent).toBe('servers a/b -');
    expect(isCurrent('#/servers/a%2Fb')).toBe(true);
    await go(hrefFor('tools'));
    expect(screen.getByTestId('where').textContent).toBe('tools - -');
  });
});
