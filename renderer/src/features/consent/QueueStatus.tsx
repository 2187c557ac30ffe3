import { Countdown } from './Countdown';

interface Props {
  readonly deadline: number;
  /** What the deadline does, in words ("Denied", "Cancelled"). */
  readonly outcome: string;
  readonly onExpire: () => void;
  /** How many more wait after this one, and what they are called ("request", "question"). */
  readonly waiting: number;
  readonly noun: string;
}

/** The foot of a dialog that waits for the person: time left, and how many more wait behind it. */
export function QueueStatus({ deadline, outcome, onExpire, waiting, noun }: Props) {
  return (
    <>
      <Countdown deadline={deadline} outcome={outcome} onExpire={onExpire} />
      {waiting > 0 ? (
        <p className="muted">
          {waiting} more {noun}
          {waiting === 1 ? '' : 's'} waiting after this one.
        </p>
      ) : null}
    </>
  );
}
