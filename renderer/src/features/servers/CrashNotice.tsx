import type { ServerSummary } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

type Recovered = NonNullable<Extract<ServerSummary['state'], { kind: 'ready' }>['recovered']>;

/** "exited with code 3" → "exit 3"; a signal stays as said ("killed by SIGKILL"). */
function shortExit(exit: string | undefined): string | undefined {
  const code = exit ? /^exited with code (-?\d+)$/.exec(exit) : null;
  return code ? `exit ${code[1]}` : exit;
}

/**
 * A server Harbor restarted after its process died: the dead process's last words beside the
 * restart ("crashy crashed: CRASHY-FATAL: … (exit 3). Restarted."), its last stderr lines behind
 * a fold — the new process's stderr no longer has them. Kept until the person stops or restarts it.
 */
export function CrashNotice({ server, recovered }: { readonly server: string; readonly recovered: Recovered }) {
  const tail = recovered.stderrTail?.trimEnd() ?? '';
  const lastLine = tail.split('\n').filter((line) => line.trim() !== '').at(-1);
  const exit = shortExit(recovered.exit);
  const what = lastLine ?? recovered.message;
  return (
    <div className="notice notice--warn crash-notice" role="status">
      <p>
        {visibleText(server)} crashed: {visibleText(what)}
        {exit ? ` (${exit})` : ''}. Restarted.
      </p>
      {tail ? (
        <details>
          <summary>Its last output</summary>
          <pre className="server-output__text">{visibleText(tail, { multiline: true })}</pre>
        </details>
      ) : null}
    </div>
  );
}
