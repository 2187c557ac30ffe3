import { RotateCw } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';

/**
 * A local server's recent stderr (its log, secrets masked), fetched when opened and on Refresh:
 * where a server says what it is doing or why it is unhappy.
 */
export function ServerOutput({ name }: { readonly name: string }) {
  const api = useHarbor();
  const [text, setText] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const fetchOutput = useCallback(async () => {
    const result = await api.servers.stderr({ name });
    if (result.ok) {
      setText(result.value.text);
      setError(undefined);
    } else setError(asErrorData(result.error));
  }, [api, name]);
  return (
    <details
      className="server-output"
      onToggle={(event) => {
        if (event.currentTarget.open) void fetchOutput();
      }}
    >
      <summary>Recent output (stderr)</summary>
      {error ? <ErrorMessage error={error} /> : null}
      {text === undefined ? null : text === '' ? <p className="muted">Nothing written to stderr yet.</p> : <pre className="server-output__text">{visibleText(text, { multiline: true })}</pre>}
      <button type="button" className="button button--small button--with-icon" onClick={() => void fetchOutput()}>
        <RotateCw aria-hidden="true" size={13} />
        Refresh
      </button>
    </details>
  );
}
