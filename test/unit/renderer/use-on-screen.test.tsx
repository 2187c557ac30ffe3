// @vitest-environment happy-dom
/**
 * An App's card tells it whether it is on screen (use-on-screen.ts): wound down once it has been
 * away a while, shown again when it comes back. The browser's IntersectionObserver is scripted
 * here (happy-dom has none that fires): one callback may carry several changes of one element,
 * in order, as the browser delivers them when the page was busy.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useOnScreen } from '../../../renderer/src/features/apps/use-on-screen';

type Callback = (entries: { isIntersecting: boolean; target: Element }[]) => void;
const observers: { callback: Callback; watched: Element[] }[] = [];

class ScriptedIntersectionObserver {
  private readonly record: { callback: Callback; watched: Element[] };
  constructor(callback: Callback) {
    this.record = { callback, watched: [] };
    observers.push(this.record);
  }
  observe(element: Element): void {
    this.record.watched.push(element);
  }
  disconnect(): void {
    this.record.watched = [];
  }
}

/** The browser reports changes of every watched element, in one callback. */
function report(...states: boolean[]): void {
  for (const { callback, watched } of observers) for (const target of watched) callback(states.map((isIntersecting) => ({ isIntersecting, target })));
}

function Probe({ show = true }: { readonly show?: boolean }) {
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  const onScreen = useOnScreen(slot, { lingerMs: 50 });
  return show ? <div ref={setSlot}>{onScreen ? 'on screen' : 'paused'}</div> : <p>nothing yet</p>;
}

beforeEach(() => {
  observers.length = 0;
  vi.useFakeTimers();
  vi.stubGlobal('IntersectionObserver', ScriptedIntersectionObserver);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useOnScreen', () => {
  it('is paused once away for the linger, and on screen again when back', () => {
    render(<Probe />);
    act(() => report(false));
    expect(screen.getByText('on screen')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(60));
    expect(screen.getByText('paused')).toBeTruthy();
    act(() => report(true));
    expect(screen.getByText('on screen')).toBeTruthy();
  });

  it('takes the last of several changes in one callback: away then back is on screen', () => {
    render(<Probe />);
    act(() => report(false, true));
    act(() => void vi.advanceTimersByTime(60));
    expect(screen.getByText('on screen')).toBeTruthy();
  });

  it('watches an element that appears after the first render', () => {
    const { rerender } = render(<Probe show={false} />);
    rerender(<Probe />);
    act(() => report(false));
    act(() => void vi.advanceTimersByTime(60));
    expect(screen.getByText('paused')).toBeTruthy();
  });
});
