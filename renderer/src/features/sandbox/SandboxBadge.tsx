import type { ServerSummary } from '../../../../preload/contract';
import './sandbox.css';

/** On a server's card: whether this local server runs sandboxed (a remote server runs elsewhere: no badge). */
export function SandboxBadge({ server }: { readonly server: Pick<ServerSummary, 'transport' | 'sandboxed'> }) {
  if (server.transport !== 'stdio' || server.sandboxed === undefined) return null;
  return server.sandboxed ? (
    <span className="badge badge--sandboxed" title="Runs in a sandbox: writes, reads and network limited">
      Sandboxed
    </span>
  ) : (
    <span className="badge badge--unsandboxed" title="Runs with your rights: it can read and write your files and reach the network">
      Not sandboxed
    </span>
  );
}
