import type { HarborErrorData } from '../../../preload/contract';
import { asErrorData } from '../lib/load-state';

interface Props {
  readonly error: HarborErrorData;
  readonly onRetry?: () => void;
}

/** An `{ok:false}` result as a person reads it: the message first, the code and detail beside. */
export function ErrorMessage({ error, onRetry }: Props) {
  const { code, message, detail } = asErrorData(error);
  return (
    <div className="notice notice--error" role="alert">
      <p className="notice__message">{message}</p>
      <p className="notice__code">{code}</p>
      {detail ? (
        <details>
          <summary>Details</summary>
          <pre>{detail}</pre>
        </details>
      ) : null}
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
