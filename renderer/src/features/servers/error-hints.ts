import type { ConnectionState, ServerSummary } from '../../../../preload/contract';

export type HintAction = 'allowLaunch' | 'edit' | 'restart' | 'signIn' | 'runUnsandboxed';

export interface ErrorHint {
  /** What to do about it, in one or two sentences. */
  readonly text: string;
  readonly action?: HintAction;
}

type ErrorState = Extract<ConnectionState, { kind: 'error' }>;

/**
 * The cause of a server's error in words a person can act on. The Host's message says what
 * happened; this says what to do (the most common failures of desktop MCP hosts first).
 */
export function hintFor(server: Pick<ServerSummary, 'transport' | 'target'>, state: ErrorState): ErrorHint | undefined {
  const text = `${state.message}\n${state.stderrTail}`;
  const program = server.target.split(' ')[0] ?? '';
  if (state.code === 'CONSENT_REQUIRED' || state.code === 'CONSENT_DENIED') {
    return {
      text:
        server.transport === 'http'
          ? 'Harbor has not been allowed to reach this address, or to send it a secret it asks for. Check the URL above; if you trust it, allow it.'
          : 'Harbor has not been allowed to run this command on your computer, or to give it a secret it asks for. Check the command line above; if you trust it, allow the launch.',
      action: 'allowLaunch',
    };
  }
  if (/ENOENT/.test(text) || (state.code === 'SPAWN_FAILED' && /not found|no such file/i.test(text))) {
    const node = /^(npx|npm|node|pnpm|bunx|yarn)$/.test(program);
    const uv = /^(uvx|uv|python3?|pip)$/.test(program);
    return {
      text: node
        ? `Harbor could not find "${program}". Apps started from the desktop often miss the PATH your terminal has (nvm, Homebrew, Volta). Run "which ${program}" in a terminal and put that full path in Command, or run the server's script with Harbor's own Node by setting Command to \${harbor:node}.`
        : uv
          ? `Harbor could not find "${program}". Run "which ${program}" in a terminal and put that full path in Command (uv installs to ~/.local/bin or ~/.cargo/bin).`
          : `Harbor could not find "${program}". Check the spelling, or give its full path in Command (run "which ${program}" in a terminal).`,
      action: 'edit',
    };
  }
  if (/EACCES/.test(text)) {
    return { text: `"${program}" is not allowed to run. Make it executable (chmod +x) or point Command at the program that runs it.`, action: 'edit' };
  }
  switch (state.code) {
    case 'SANDBOX_UNAVAILABLE':
      return {
        text: 'This server runs in a sandbox, and this machine cannot run the sandbox (the message says why and how to fix it). Fix that and restart, or run this server without the sandbox, with your rights.',
        action: 'runUnsandboxed',
      };
    case 'SECRET_MISSING':
      return { text: 'A secret this server needs is not in the keychain. Edit the server and type the value again.', action: 'edit' };
    case 'KEYCHAIN_UNAVAILABLE':
      return { text: 'The system keychain cannot be reached, so Harbor cannot read this server\'s secrets. Unlock the keychain (or start its service), then restart the server.', action: 'restart' };
    case 'CONFIG_INVALID':
      return { text: 'Its configuration has a problem. Edit the server to fix it.', action: 'edit' };
    case 'AUTH_REQUIRED':
      return { text: 'This server needs you to sign in.', action: 'signIn' };
    case 'AUTH_FAILED':
      return { text: 'Signing in to this server failed. Check its address; if it keeps failing the server may not support a safe sign-in.', action: 'edit' };
    case 'TIMEOUT':
      return {
        text:
          server.transport === 'stdio'
            ? 'The server did not answer in time. The first start of an npx or uvx server downloads it and can be slow: try Restart.'
            : 'The server did not answer in time. Check that it is running and reachable, then Restart.',
        action: 'restart',
      };
    case 'CONNECT_FAILED':
      return server.transport === 'http'
        ? { text: 'Harbor could not reach this address. Check the URL, that the server is running, and any proxy or VPN.', action: 'edit' }
        : { text: 'The server started but did not speak MCP. Check that this command runs an MCP server (its output below may say why).', action: 'edit' };
    case 'PROTOCOL_ERROR':
      return { text: 'The server answered in a way MCP does not allow. It may be an old or broken version: update it, or check its output below.' };
    case 'CONNECTION_CLOSED':
      return { text: 'The server exited. Its output below usually says why; fix that, then Restart.', action: 'restart' };
    default:
      return state.stderrTail ? { text: 'The server\'s own output below may say what went wrong.' } : undefined;
  }
}
