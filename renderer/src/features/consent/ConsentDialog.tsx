import { useId, useRef } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { Countdown } from './Countdown';
import { DefinitionDiff } from './DefinitionDiff';
import { CommandSection, RemoteSection, SecretSection } from './LaunchDetails';
import { LookalikeWarning } from '../../ui/LookalikeWarning';
import { Modal } from './Modal';
import { SkillSection } from './SkillDetails';
import { ToolDescription } from './ToolDescription';
import { requesterWords } from './requester';
import { riskLine } from './risk';

interface Props {
  readonly request: ConsentRequest;
  /** Further requests waiting behind this one. */
  readonly waiting: number;
  readonly onDecide: (decision: ConsentChoice) => void;
}

const TOOL_LABELS: Record<ConsentChoice, string> = {
  once: 'Allow once',
  conversation: 'Allow in this conversation',
  always: 'Always allow',
  deny: 'Deny',
};

const LAUNCH_LABELS: Record<ConsentChoice, string> = {
  once: 'Start this time',
  conversation: 'Start for this conversation',
  always: 'Always allow this command',
  deny: 'Deny',
};

const REMOTE_LABELS: Record<ConsentChoice, string> = {
  once: 'Connect this time',
  conversation: 'Connect for this conversation',
  always: 'Always allow this address',
  deny: 'Deny',
};

const SECRET_LABELS: Record<ConsentChoice, string> = {
  once: 'Give it this time',
  conversation: 'Give it for this conversation',
  always: 'Give it the secret',
  deny: 'Deny',
};

const SKILL_LABELS: Record<ConsentChoice, string> = {
  once: 'Allow once',
  conversation: 'Allow in this conversation',
  always: 'Always for this skill',
  deny: 'Deny',
};

function pretty(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return visibleText(text, { multiline: true });
}

/**
 * The person decides before a tool runs, a server launches (a stdio command line; a remote
 * server's address and header names) or a server gets a keychain secret that was not set for it.
 * Everything shown is plain text: the server as the person configured it, the tool's own title
 * and full description, the exact arguments (how data leaves the conversation), and — when the
 * tool changed since it was approved — what changed. Names, command lines, descriptions and arguments go through visibleText: a bidi
 * override or an invisible character shows as ⟨U+…⟩ instead of disguising what is approved.
 * Deny has the focus; Escape and closing deny.
 */
export function ConsentDialog({ request, waiting, onDecide }: Props) {
  const denyRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const leadId = useId();
  const remote = request.kind === 'launch' ? request.remote : undefined;
  const launch = request.kind === 'launch' && !remote;
  const secret = request.kind === 'secret' ? request.secret : undefined;
  const skill = request.kind === 'skill' ? request.skill : undefined;
  const labels = remote ? REMOTE_LABELS : launch ? LAUNCH_LABELS : secret ? SECRET_LABELS : skill ? SKILL_LABELS : TOOL_LABELS;
  const tool = request.tool;
  const server = visibleText(request.server);
  const name = visibleText(tool?.name ?? '');
  const toolTitle = tool?.title ? visibleText(tool.title) : undefined;
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
  // Who asks for a tool call: the person, the model, a script, an App, a task.
  const asker = request.kind === 'tool' || request.kind === 'skill' ? requesterWords(request) : undefined;
  // Deny is always offered (and is what Escape, closing and the deadline do).
  const options = ['deny' as const, ...request.options.filter((o) => o !== 'deny' && !(manual && o === 'conversation'))];

  return (
    <Modal labelledBy={titleId} describedBy={leadId} onCancel={() => onDecide('deny')} initialFocus={denyRef} className="consent">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (deny)" onClick={() => onDecide('deny')}>
          ×
        </button>
      </header>

      {/* Focusable: a long description or diff scrolls here, and a keyboard must be able to scroll it too. */}
      <div className="modal__body" tabIndex={0} role="region" aria-label="What is asked">
        {remote ? (
          <p id={leadId} className="consent__danger">
            Harbor has not reached this server before: it will send requests to this address, with the headers below. Allow it only if you know this address.
          </p>
        ) : launch ? (
          <p id={leadId} className="consent__danger">
            This runs code on your computer, with your permissions. Allow it only if you know this command.
          </p>
        ) : secret ? (
          <p id={leadId} className="consent__danger">
            This secret was not set for this server. Harbor sends a secret only to the servers it belongs to: allow it only if this server should have it.
          </p>
        ) : skill ? (
          <p id={leadId} className="consent__danger">
            {request.stale
              ? 'The server changed this skill’s files after you approved it. Your earlier approval no longer applies: review what changed. '
              : ''}
            A skill is instructions from the server, written into the model’s context: allow it only if you would follow them yourself.
          </p>
        ) : request.stale ? (
          <p id={leadId} className="consent__danger">
            The server changed this tool’s definition after you approved it. Your earlier approval no longer applies: review what changed.
          </p>
        ) : (
          <p id={leadId} className={`consent__lead${request.requester?.kind === 'app' ? ' consent__danger' : ''}`}>
            {asker?.lead}
          </p>
        )}

        <LookalikeWarning problems={request.lookalike} />

        <dl className="facts consent__facts">
          <dt>Server</dt>
          <dd>
            <strong>{server}</strong>{' '}
            <span className={`badge ${request.trusted ? 'badge--ready' : 'badge--starting'}`}>{request.trusted ? 'Trusted' : 'Not trusted'}</span>
            <span className="consent__note">
              {request.trusted
                ? ' You marked this server trusted.'
                : launch || remote
                  ? ` You have not marked it trusted, so Harbor asks before ${remote ? 'reaching' : 'starting'} it.`
                  : ' Its descriptions and hints are the server’s own claims: Harbor does not rely on them.'}
            </span>
          </dd>
          {asker ? (
            <>
              <dt>Asked by</dt>
              <dd className="consent__requester">{asker.askedBy}</dd>
            </>
          ) : null}
          {skill ? (
            <>
              <dt>Skill</dt>
              <dd>
                <span className="consent__tool-name">{visibleText(skill.name)}</span> <code className="consent__note">{visibleText(skill.uri)}</code>
              </dd>
              <dt>Description</dt>
              <dd>{visibleText(skill.description)}</dd>
            </>
          ) : null}
          {tool ? (
            <>
              <dt>Tool</dt>
              {/* The real name first: a title is the server's words ("Harbor verified ✅"), shown as such. */}
              <dd>
                <span className="consent__tool-name">{name}</span>
                {toolTitle && toolTitle !== name ? <span className="consent__note"> — titled “{toolTitle}” by the server</span> : null}
              </dd>
              <dt>Description</dt>
              <dd>
                <ToolDescription description={tool.description} />
              </dd>
              <dt>Risk</dt>
              <dd className="consent__risk">
                {riskLine(tool.annotations)}
                {tool.annotations && Object.keys(tool.annotations).length > 0 ? <span className="consent__note"> (as the server describes it)</span> : null}
              </dd>
            </>
          ) : null}
        </dl>

        {request.stale ? <DefinitionDiff before={request.stale.before} after={request.stale.after} changed={request.stale.changed} /> : null}

        {request.kind === 'tool' ? (
          <section className="consent__section" aria-label="Arguments">
            <h3 className="consent__subtitle">Arguments it will send</h3>
            {request.arguments && Object.keys(request.arguments).length > 0 ? (
              <pre className="consent__code">{pretty(request.arguments)}</pre>
            ) : (
              <p className="muted">No arguments.</p>
            )}
          </section>
        ) : null}

        {remote ? <RemoteSection remote={remote} /> : launch && request.launch ? <CommandSection launch={request.launch} /> : null}
        {secret ? <SecretSection secret={secret} /> : null}
        {skill ? <SkillSection skill={skill} /> : null}

        <Countdown deadline={request.deadline} outcome="Denied" onExpire={() => onDecide('deny')} />
        {waiting > 0 ? (
          <p className="muted">
            {waiting} more request{waiting === 1 ? '' : 's'} waiting after this one.
          </p>
        ) : null}
      </div>

      <footer className="modal__actions">
        {options.map((option) =>
          option === 'deny' ? (
            <button key={option} ref={denyRef} type="button" className="button" onClick={() => onDecide('deny')}>
              {labels.deny}
            </button>
          ) : (
            <button
              key={option}
              type="button"
              className={`button${option === 'once' ? ' button--primary' : ''}`}
              onClick={() => onDecide(option)}
            >
              {labels[option]}
            </button>
          ),
        )}
      </footer>
    </Modal>
  );
}
