import type { ConnectionState, ServerSummary } from '../../../../preload/contract';

export type HintAction = 'allowLaunch' | 'edit' | 'restart' | 'signIn' | 'runUnsandboxed';

export interface ErrorHint {
  /**
   * A short headline ("“npx” was not found"); the Host's full message then goes under Details.
   * Absent: the Host's message is specific enough to be the headline itself.
   */
  readonly title?: string;
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
  if (state.code === 'CONSENT_DENIED') {
    // The Host's message says what was refused (the launch, the address, a secret) and that it holds: it is the headline.
    return {
      text: `Start it to be asked again, or allow the ${server.transport === 'http' ? 'connection' : 'launch'} if you trust ${server.transport === 'http' ? 'this address' : 'this command'}.`,
      action: 'allowLaunch',
    };
  }
  if (state.code === 'CONSENT_REQUIRED') {
    return server.transport === 'http'
      ? {
          title: 'Waiting for your permission to connect',
          text: 'Harbor has not been allowed to reach this address, or to send it a secret it asks for. Check the URL; if you trust it, allow it.',
          action: 'allowLaunch',
        }
      : {
          title: 'Waiting for your permission to run',
          text: 'Harbor has not been allowed to run this command on your computer, or to give it a secret it asks for. Check the command line; if you trust it, allow the launch.',
          action: 'allowLaunch',
        };
  }
  // The Host found the first word of a space-holding command: never headline that program as missing.
  if (state.code === 'SPAWN_FAILED' && /looks like a whole command line/.test(state.message)) {
    return {
      title: 'This looks like a whole command line',
      text: 'Command holds the program and its arguments together. Edit the server: put the program in Command and each of the rest in Arguments (pasting the whole line into Command splits it for you).',
      action: 'edit',
    };
  }
  if (/ENOENT/.test(text) || (state.code === 'SPAWN_FAILED' && /not found|no such file|could not find/i.test(text))) {
    const node = /^(npx|npm|node|pnpm|bunx|yarn)$/.test(program);
    const uv = /^(uvx|uv|python3?|pip)$/.test(program);
    return {
      title: `“${program}” was not found`,
      text: node
        ? `Apps started from the desktop often miss the PATH your terminal has (nvm, Homebrew, Volta). Run "which ${program}" in a terminal and put that full path in Command, or run the server's script with Harbor's own Node by setting Command to \${harbor:node}.`
        : uv
          ? `Run "which ${program}" in a terminal and put that full path in Command (uv installs to ~/.local/bin or ~/.cargo/bin).`
          : `Check the spelling, or give its full path in Command (run "which ${program}" in a terminal).`,
      action: 'edit',
    };
  }
  if (/EACCES/.test(text)) {
    return { title: `“${program}” is not allowed to run`, text: 'Make it executable (chmod +x) or point Command at the program that runs it.', action: 'edit' };
  }
  switch (state.code) {
    case 'SANDBOX_UNAVAILABLE':
      return {
        text: 'This server runs in a sandbox, and this machine cannot run the sandbox (the message says why and how to fix it). Fix that and restart, or run this server without the sandbox, with your rights.',
        action: 'runUnsandboxed',
      };
    case 'SECRET_MISSING':
      return { title: 'A secret it needs is missing', text: 'A secret this server needs is not in the keychain. Edit the server and type the value again.', action: 'edit' };
    case 'KEYCHAIN_UNAVAILABLE':
      return {
        title: 'The keychain cannot be reached',
        text: "Harbor cannot read this server's secrets. Unlock the keychain (or start its service), then restart the server.",
        action: 'restart',
      };
    case 'CONFIG_INVALID':
      // The Host's message names the problem: it is the headline.
      return { text: 'Edit the server to fix it.', action: 'edit' };
    case 'AUTH_REQUIRED':
      return { title: 'Sign-in needed', text: 'This server needs you to sign in before Harbor can use it.', action: 'signIn' };
    case 'AUTH_FAILED':
      return { title: 'Signing in failed', text: 'Check its address; if it keeps failing the server may not support a safe sign-in.', action: 'edit' };
    case 'TIMEOUT':
      return {
        title: 'It did not answer in time',
        text:
          server.transport === 'stdio'
            ? 'The first start of an npx or uvx server downloads it and can be slow: try Restart.'
            : 'Check that it is running and reachable, then Restart.',
        action: 'restart',
      };
    case 'CONNECT_FAILED':
      return server.transport === 'http'
        ? { title: 'Its address could not be reached', text: 'Check the URL, that the server is running, and any proxy or VPN.', action: 'edit' }
        : { title: 'It did not speak MCP', text: 'It started but did not answer as an MCP server. Check that this command runs one (its output may say why).', action: 'edit' };
    case 'PROTOCOL_ERROR':
      return { title: 'It answered in a way MCP does not allow', text: 'It may be an old or broken version: update it, or check its output.' };
    case 'CONNECTION_CLOSED':
      return { title: 'It exited', text: 'Its output usually says why; fix that, then Restart.', action: 'restart' };
    default:
      return state.stderrTail ? { text: "The server's own output (under Details) may say what went wrong." } : undefined;
  }
}
