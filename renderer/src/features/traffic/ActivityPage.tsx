import { useSyncExternalStore } from 'react';
import { useActivity } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';

export function ActivityPage() {
  const log = useActivity();
  const entries = useSyncExternalStore(log.subscribe, log.snapshot);
  return (
    <>
      <PageHeader title="Activity">What your servers did since this window opened.</PageHeader>
      {entries.length === 0 ? (
        <EmptyState title="No activity yet">
          Server starts, stops and catalog changes show up here as they happen.
        </EmptyState>
      ) : (
        <ol className="activity" aria-label="Activity">
          {entries.map((entry) => (
            <li key={entry.id} className="activity__item">
              <time dateTime={entry.at.toISOString()}>{entry.at.toLocaleTimeString()}</time>
              <span>
                <strong>{entry.server}</strong> {entry.text}
              </span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
