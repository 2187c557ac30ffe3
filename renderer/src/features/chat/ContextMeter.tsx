import { memo } from 'react';
import type { ChatContext } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';

const n = (value: number) => value.toLocaleString('en-US');
/** 950, 1.2k, 34k: the meter's label in the header row. */
const short = (value: number) => (value < 1000 ? String(value) : `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`);

const PARTS = [
  { key: 'instructions', label: 'Instructions', note: 'Harbor’s system prompt and the servers’ instructions' },
  { key: 'tools', label: 'Tools', note: 'tool definitions (or the two search tools)' },
  { key: 'skills', label: 'Skills', note: 'the skills index and load_skill' },
  { key: 'history', label: 'History', note: 'this conversation so far' },
] as const;

/** How a turn spends the budget: one bar split four ways, and the numbers. */
function BudgetSplit({ split, window }: { readonly split: NonNullable<ChatContext['breakdown']>; readonly window: number }) {
  const total = PARTS.reduce((sum, part) => sum + split[part.key], 0);
  return (
    <section className="context-meter__split" aria-label="How a turn spends the budget">
      <p className="context-meter__headline">
        A turn now: {n(total)} tokens{window > 0 ? `, ${((total / window) * 100).toFixed(1)}% of ${n(window)}` : ''}.
      </p>
      <div className="context-meter__splitbar" aria-hidden="true">
        {PARTS.map((part) => (split[part.key] > 0 ? <span key={part.key} className={`context-meter__part context-meter__part--${part.key}`} style={{ flexGrow: split[part.key] }} /> : null))}
      </div>
      <dl className="context-meter__parts">
        {PARTS.map((part) => (
          <div key={part.key} className="context-meter__row">
            <dt>
              <span className={`context-meter__swatch context-meter__part--${part.key}`} aria-hidden="true" />
              {part.label} <span className="muted">({part.note})</span>
            </dt>
            <dd className="table__number">{n(split[part.key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * What the tool definitions cost in the model's context window, from the Host's token count:
 * a meter against the window (with the point where tool search takes over), and the cost per server.
 * Memoized: the chat page renders again for every streamed piece, the count changes far less often.
 */
export const ContextMeter = memo(function ContextMeter({ state }: { readonly state: LoadState<ChatContext> }) {
  if (state.status !== 'ready') {
    return <span className="context-meter context-meter--empty">{state.status === 'loading' ? 'Measuring tools…' : 'Tool cost unknown'}</span>;
  }
  const c = state.value;
  const percent = c.contextWindow > 0 ? (c.toolTokens / c.contextWindow) * 100 : 0;
  const shownPercent = percent < 0.1 && c.toolTokens > 0 ? '<0.1' : percent.toFixed(1);
  const label = `Tool definitions: ${n(c.toolTokens)} tokens, ${shownPercent}% of ${n(c.contextWindow)}`;
  return (
    <details className="context-meter">
      <summary title={label}>
        <meter className="context-meter__bar" aria-hidden="true" min={0} max={c.contextWindow} value={c.toolTokens} high={c.searchThresholdTokens} optimum={0} />
        <span className="visually-hidden">Tool definitions: </span>
        <span className="context-meter__label">{short(c.toolTokens)} tokens</span>
        <span className="visually-hidden">
          {' '}
          ({n(c.toolTokens)}), {shownPercent}% of {n(c.contextWindow)}
        </span>
      </summary>
      <div className="context-meter__detail">
        <p className="context-meter__headline">{label}.</p>
        <p>
          {c.toolCount} tool{c.toolCount === 1 ? '' : 's'} from {c.servers.length} connected server{c.servers.length === 1 ? '' : 's'}
          {c.instructionTokens > 0 ? `, plus ${n(c.instructionTokens)} tokens of server instructions` : ''}.{' '}
          {c.mode === 'search'
            ? `That is more than ${n(c.searchThresholdTokens)} tokens, so a new conversation gets two search tools instead of every definition.`
            : c.toolSearch === 'off'
              ? 'Tool search is off: the model gets every definition.'
              : `Above ${n(c.searchThresholdTokens)} tokens the model would get two search tools instead.`}
        </p>
        {c.breakdown ? <BudgetSplit split={c.breakdown} window={c.contextWindow} /> : null}
        {c.servers.length > 0 ? (
          <table className="table context-meter__table">
            <caption className="visually-hidden">Token cost per server</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col" className="table__number">
                  Tools
                </th>
                <th scope="col" className="table__number">
                  Tokens
                </th>
              </tr>
            </thead>
            <tbody>
              {c.servers.map((s) => (
                <tr key={s.name}>
                  <th scope="row">{s.name}</th>
                  <td className="table__number">{s.tools}</td>
                  <td className="table__number">{n(s.toolTokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {c.notConnected.length > 0 ? <p className="muted">Not connected yet (not counted): {c.notConnected.join(', ')}.</p> : null}
      </div>
    </details>
  );
});
