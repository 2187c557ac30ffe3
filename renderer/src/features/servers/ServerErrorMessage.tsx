import type { ConnectionState, ServerSummary } from '../../../../preload/contract';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { hintFor } from './error-hints';
import { healthOf } from './server-health';
import { AllowLaunchButton } from './ServerActions';

type ErrorState = Extract<ConnectionState, { kind: 'error' }>;

/**
 * Why a server is not running, said once: a headline in plain words, what to do first, and the
 * Host's full message, the server's last output and the error code under Details. When the fix
 * is the person's permission, the button to give it is right there.
 */
export function ServerErrorMessage({ server, state }: { readonly server: ServerSummary; readonly state: ErrorState }) {
  const hint = hintFor(server, state);
  return (
    <ErrorMessage
      error={{ code: state.code, message: state.message }}
      tone={healthOf(server).kind === 'attention' ? 'attention' : 'error'}
      {...(hint?.title ? { title: hint.title } : {})}
      {...(hint ? { fix: hint.text } : {})}
      {...(state.stderrTail ? { output: { label: 'Technical detail and the server’s last output', text: state.stderrTail } } : {})}
      {...(hint?.action === 'allowLaunch' ? { actions: <AllowLaunchButton server={server} /> } : {})}
    />
  );
}
