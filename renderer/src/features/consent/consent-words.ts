import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

/** The choices whose words do not depend on the question ("app-session" names the App's server). */
type FixedChoice = Exclude<ConsentChoice, 'app-session'>;

const TOOL_LABELS: Record<FixedChoice, string> = {
  once: 'Allow once',
  conversation: 'Allow in this conversation',
  always: 'Always allow',
  deny: 'Deny',
};

const LAUNCH_LABELS: Record<FixedChoice, string> = {
  once: 'Start this time',
  conversation: 'Start for this conversation',
  always: 'Always allow this command',
  deny: 'Deny',
};

const REMOTE_LABELS: Record<FixedChoice, string> = {
  once: 'Connect this time',
  conversation: 'Connect for this conversation',
  always: 'Always allow this address',
  deny: 'Deny',
};

const SECRET_LABELS: Record<FixedChoice, string> = {
  once: 'Give it this time',
  conversation: 'Give it for this conversation',
  always: 'Give it the secret',
  deny: 'Deny',
};

const SKILL_LABELS: Record<FixedChoice, string> = {
  once: 'Allow once',
  conversation: 'Allow in this conversation',
  always: 'Always for this skill',
  deny: 'Deny',
};

/** What a consent question says, wherever it is shown (the dialog, or a card in a chat's transcript). */
export interface ConsentWords {
  readonly title: string;
  readonly labels: Record<ConsentChoice, string>;
  /** The choices offered, Deny first (it is always offered, and is what the deadline does). */
  readonly options: readonly ConsentChoice[];
  /** When an App's session grant is offered: what it covers and for how long, in words. */
  readonly appSession?: string;
}

export function consentWords(request: ConsentRequest): ConsentWords {
  const remote = request.kind === 'launch' ? request.remote : undefined;
  const launch = request.kind === 'launch' && !remote;
  const secret = request.kind === 'secret' ? request.secret : undefined;
  const skill = request.kind === 'skill' ? request.skill : undefined;
  const server = visibleText(request.server);
  const fixed = remote ? REMOTE_LABELS : launch ? LAUNCH_LABELS : secret ? SECRET_LABELS : skill ? SKILL_LABELS : TOOL_LABELS;
  const labels: Record<ConsentChoice, string> = { ...fixed, 'app-session': `Allow this App to use ${server}’s tools for this session` };
  const name = visibleText(request.tool?.name ?? '');
  const title = remote
    ? `Connect to the remote server “${server}”?`
    : launch
      ? `Start the server “${server}”?`
      : secret
        ? `Give “${server}” the secret “${visibleText(secret.name)}”?`
        : skill
          ? request.stale
            ? `“${visibleText(skill.name)}” on ${server} changed since you approved it`
            : `Load the skill “${visibleText(skill.name)}” from ${server}?`
          : request.stale
            ? `“${name}” on ${server} changed since you approved it`
            : `Allow ${server} to run “${name}”?`;
  // Outside a conversation (a tool run by hand, a server started from its page) there is no
  // conversation to remember a choice for: "for this conversation" is never offered there.
  const manual = request.conversationId === undefined;
  const options = ['deny' as const, ...request.options.filter((o) => o !== 'deny' && !(manual && o === 'conversation'))];
  const appSession = options.includes('app-session') ? appSessionWords(request, server) : undefined;
  return { title, labels, options, ...(appSession ? { appSession } : {}) };
}

/** What "Allow this App to use SERVER's tools for this session" covers, said before it is chosen. */
function appSessionWords(request: ConsentRequest, server: string): string {
  const requester = request.requester;
  const uri = requester?.kind === 'app' && requester.uri ? ` (${visibleText(requester.uri)})` : '';
  return (
    `“Allow this App…” covers only this App${uri} of ${server}, and only the tools of ${server} it may call, as they are now — ` +
    'not other Apps, other servers, the model or code mode. A tool that changes asks again. It ends when Harbor quits, and is never saved.'
  );
}

/**
 * Whether a question belongs in a chat's transcript rather than a dialog: a tool call the model
 * (or its script) makes in a conversation. Everything else — a tool run by hand, an App, a launch,
 * a secret, code mode outside a chat — stays a dialog.
 */
export function inChat(request: ConsentRequest): request is ConsentRequest & { conversationId: string } {
  const kind = request.requester?.kind;
  return request.kind === 'tool' && request.conversationId !== undefined && (kind === 'model' || kind === 'code');
}

/** The model's call (or run_code call) a chat's question is about, when the Host says. */
export function askingCall(request: ConsentRequest): string | undefined {
  const requester = request.requester;
  return requester && (requester.kind === 'model' || requester.kind === 'code') ? requester.toolCallId : undefined;
}
