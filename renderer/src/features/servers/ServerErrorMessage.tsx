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
  // A launch question after a failure (denied, say) hides nothing: the failure before it is said too.
  const earlier = server.lastError;
  const fix = earlier ? (
    <>
      {hint ? <p>{hint.text}</p> : null}
      <p>Before this it failed: {earlier.message}</p>
    </>
  ) : (
    hint?.text
  );
  const output = state.stderrTail
    ? { label: 'Technical detail and the server’s last output', text: state.stderrTail }
    : earlier?.stderrTail
      ? { label: 'The server’s last output before this', text: earlier.stderrTail }
      : undefined;
  return (
    <ErrorMessage
      error={{ code: state.code, message: state.message }}
      tone={healthOf(server).kind === 'attention' ? 'attention' : 'error'}
      {...(hint?.title ? { title: hint.title } : {})}
      {...(fix ? { fix } : {})}
      {...(output ? { output } : {})}
      {...(hint?.action === 'allowLaunch' ? { actions: <AllowLaunchButton server={server} /> } : {})}
      {...(hint?.action === 'runUnsandboxed' && config ? { actions: <RunUnsandboxedButton server={server} config={config} /> } : {})}
    />
  );
}
