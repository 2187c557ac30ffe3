// @vitest-environment happy-dom
/**
 * Pages are lazy chunks: the first page shows once its chunk has loaded, without taking focus; after
 * a navigation, focus moves to the new page's title once that page (its chunk loaded) is on screen.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Page } from '../../../renderer/src/app/Page';
import { ContractTransport } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

describe('the page of a route', () => {
  it('loads the page, and after a navigation focuses the new page’s title', async () => {
    const transport = new ContractTransport({ 'tasks.list': () => [] });
    const view = render(
      <WithHost transport={transport}>
        <Page route="tasks" />
      </WithHost>,
    );
    // Each page is its own chunk, imported on first use: on a busy machine the import takes over findBy's default second.
    const tasks = await screen.findByRole('heading', { level: 1, name: 'Tasks' }, { timeout: 10_000 });
    expect(document.activeElement).not.toBe(tasks);

    view.rerender(
      <WithHost transport={transport}>
        <Page route="activity" />
      </WithHost>,
    );
    const activity = await screen.findByRole('heading', { level: 1, name: 'Activity' }, { timeout: 10_000 });
    await waitFor(() => expect(document.activeElement).toBe(activity));
  });
});
