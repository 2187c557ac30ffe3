import { useId } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { visibleText } from '../../lib/visible-text';
import { hintFor } from './error-hints';
import { healthOf } from './server-health';
import { stateLabel } from './StateBadge';

interface Props {
  readonly server: ServerSummary;
  readonly selected: boolean;
  /** Tokens its tools and instructions take in the model's context, when known. */
  readonly tokens?: number | undefined;
}

/**
 * One server in the list, one line tall plus a line of facts: a status dot, its name, and what
 * matters at a glance — state, era, tools, context cost. A link: the list is the Servers page's
 * navigation, and its address opens this server's details.
 */
export function ServerRow({ server, selected, tokens }: Props) {
  const id = useId();
  const { state } = server;
  const tone = !server.enabled ? 'off' : healthOf(server).kind === 'attention' ? 'attention' : state.kind;
  const status = !server.enabled ? 'Disabled' : healthOf(server).kind === 'attention' ? 'Needs you' : stateLabel(state, undefined, server.transport);
  const problem = server.enabled && state.kind === 'error' ? (hintFor(server, state)?.title ?? state.message) : undefined;
  const facts = [
    server.lookalike?.length ? 'look-alike name or host' : undefined,
    problem,
    // The protocol by its version ("2026-07-28"), never "modern"/"legacy": the words a person can look up.
    server.protocolVersion,
    server.transport === 'stdio' && server.sandboxed ? 'sandboxed' : undefined,
    state.kind === 'ready' ? `${server.counts.tools} tool${server.counts.tools === 1 ? '' : 's'}` : undefined,
    state.kind === 'ready' && tokens !== undefined ? `~${formatTokens(tokens)} tokens` : undefined,
  ].filter((f): f is string => f !== undefined);
  return (
    <a
      className={`server-row${selected ? ' server-row--selected' : ''}`}
      href={hrefFor('servers', server.name)}
      aria-current={selected ? 'true' : undefined}
      aria-describedby={`${id}-facts`}
    >
      <span className={`server-row__dot server-row__dot--${tone}`} aria-hidden="true" />
      <span className="server-row__main">
        <span className="server-row__line">
          <span className="server-row__name">{visibleText(server.name)}</span>
          {/* Named by the server's name alone (its visible text, so speech input finds it); the state and facts are its description. */}
          <span className={`server-row__state server-row__state--${tone}`} aria-hidden="true">
            {status}
          </span>
        </span>
        <span className="server-row__facts" id={`${id}-facts`} aria-hidden="true">
          <span className="visually-hidden">{status}. </span>
          {facts.join(' · ')}
          {/* Badges other features add to a row (e.g. the sandbox) go here. */}
        </span>
      </span>
    </a>
  );
}

/** 1234 → "1.2k", 980 → "980": a cost read at a glance. */
export function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}
