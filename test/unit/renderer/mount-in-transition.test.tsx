// @vitest-environment happy-dom
/**
 * MountInTransition: the fallback first, the children once the transition has rendered them; the
 * children's later updates show at once (only the mount waits).
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MountInTransition } from '../../../renderer/src/ui/MountInTransition';

afterEach(cleanup);

describe('MountInTransition', () => {
  it('shows the fallback, then the children; an update of the children shows in the same render', async () => {
    const { rerender } = render(
      <MountInTransition fallback={<p>Opening…</p>}>
        <p>First message</p>
      </MountInTransition>,
    );
    expect(await screen.findByText('First message')).toBeTruthy();
    expect(screen.queryByText('Opening…')).toBeNull();
    rerender(
      <MountInTransition fallback={<p>Opening…</p>}>
        <p>Second message</p>
      </MountInTransition>,
    );
    expect(screen.getByText('Second message')).toBeTruthy();
  });

  it('renders only the fallback in its first render', () => {
    let html = '';
    function Probe() {
      return <p>Children</p>;
    }
    // The first render, before its effect queues the transition: read inside a ref callback of the fallback.
    render(
      <MountInTransition fallback={<p ref={(el) => void (el && (html = el.parentElement?.innerHTML ?? ''))}>Opening…</p>}>
        <Probe />
      </MountInTransition>,
    );
    expect(html).toBe('<p>Opening…</p>');
  });
});
