import type { ConnectionState, ServerSummary } from '../../../../preload/contract';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { hintFor } from './error-hints';
import { healthOf } from './server-health';
import { RunUnsandboxedButton } from './RunUnsandboxedButton';
import { AllowLaunchButton } from './ServerActions';

type ErrorState = Extract<ConnectionState, { kind: 'error' }>;

/**
 * Why a server is not running, said once: a headline in plain words, what to do first, and the
 * Host's full message, the server's last output and the error code under Details. When the fix
 * is the person's permission, the button to give it is right there.
 */
interface Props {
  readonly server: ServerSummary;
  readonly state: ErrorState;
  /** Its registry entry, when the page has it: fixes that edit it (run without the sandbox) need it. */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
}

export function ServerErrorMessage({ server, state, config }: Props) {
  const hint = hintFor(server, state);
  return (
    <ErrorMessage
      error={{ code: state.code, message: state.message }}
      tone={healthOf(server).kind === 'attention' ? 'attention' : 'error'}
      {...(hint?.title ? { title: hint.title } : {})}
      {...(hint ? { fix: hint.text } : {})}
      {...(state.stderrTail ? { output: { label: 'Technical detail and the server’s last output', text: state.stderrTail } } : {})}
      {...(hint?.action === 'allowLaunch' ? { actions: <AllowLaunchButton server={server} /> } : {})}
      {...(hint?.action === 'runUnsandboxed' && config ? { actions: <RunUnsandboxedButton server={server} config={config} /> } : {})}
    />
  );
}
