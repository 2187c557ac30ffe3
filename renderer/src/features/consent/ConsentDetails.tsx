import type { ConsentRequest } from '../../../../preload/contract';
import { prettyJson } from '../../lib/pretty-json';
import { visibleText } from '../../lib/visible-text';
import { DefinitionDiff } from './DefinitionDiff';
import { CommandSection, RemoteSection, SecretSection } from './LaunchDetails';
import { LookalikeWarning } from '../../ui/LookalikeWarning';
import { SkillSection } from './SkillDetails';
import { ToolDescription } from './ToolDescription';
import { requesterWords } from './requester';
import { riskLine } from './risk';

function pretty(value: unknown): string {
  return visibleText(prettyJson(value), { multiline: true });
}

interface Props {
  readonly request: ConsentRequest;
  /** id of the lead paragraph (what describes the question). */
  readonly leadId: string;
}

/**
 * What a consent question shows, the same in the dialog and in a chat's card: the server as the
 * person configured it, the tool's own title and full description, the exact arguments (how data
 * leaves the conversation), and — when the tool changed since it was approved — what changed.
 * Names, command lines, descriptions and arguments go through visibleText: a bidi override or an
 * invisible character shows as ⟨U+…⟩ instead of disguising what is approved.
 */
export function ConsentDetails({ request, leadId }: Props) {
  const remote = request.kind === 'launch' ? request.remote : undefined;
  const launch = request.kind === 'launch' && !remote;
  const secret = request.kind === 'secret' ? request.secret : undefined;
  const skill = request.kind === 'skill' ? request.skill : undefined;
  const tool = request.tool;
  const server = visibleText(request.server);
  const name = visibleText(tool?.name ?? '');
  const toolTitle = tool?.title ? visibleText(tool.title) : undefined;
  // Who asks for a tool call: the person, the model, a script, an App, a task.
  const asker = request.kind === 'tool' || request.kind === 'skill' ? requesterWords(request) : undefined;
  return (
    <>
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
    </>
  );
}
