import { useEffect, useState } from 'react';

function format(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

interface Props {
  /** Epoch ms. */
  readonly deadline: number;
  /** What happens at the deadline, in words ("Denied", "Cancelled"). */
  readonly outcome: string;
  /** Called once when the deadline passes. */
  readonly onExpire?: () => void;
}

/** Time left to answer. Announced only as a timer (no live region): a ticking voice would drown the dialog. */
export function Countdown({ deadline, outcome, onExpire }: Props) {
  const [now, setNow] = useState(() => Date.now());
  const left = deadline - now;
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left <= 0) onExpire?.();
  }, [left <= 0]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when it crosses zero
  return (
    <p className={`countdown${left < 30_000 ? ' countdown--soon' : ''}`} role="timer">
      {left > 0 ? (
        <>
          {outcome} automatically in <span className="countdown__time">{format(left)}</span>
        </>
      ) : (
        <>Time is up: {outcome.toLowerCase()}.</>
      )}
    </p>
  );
}
