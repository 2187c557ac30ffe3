import type { ChatContext } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';

const n = (value: number) => value.toLocaleString('en-US');

/**
 * What the tool definitions cost in the model's context window, from the Host's token count:
 * a meter against the window (with the point where tool search takes over), and the cost per server.
 */
export function ContextMeter({ state }: { readonly state: LoadState<ChatContext> }) {
  if (state.status !== 'ready') {
    return <span className="context-meter context-meter--empty">{state.status === 'loading' ? 'Measuring tools…' : 'Tool cost unknown'}</span>;
  }
  const c = state.value;
  const percent = c.contextWindow > 0 ? (c.toolTokens / c.contextWindow) * 100 : 0;
  const label = `Tool definitions: ${n(c.toolTokens)} tokens, ${percent < 0.1 && c.toolTokens > 0 ? '<0.1' : percent.toFixed(1)}% of ${n(c.contextWindow)}`;
  return (
    <details className="context-meter">
      <summary>
        <span className="context-meter__label">{label}</span>
        <meter
          className="context-meter__bar"
          aria-label="Context used by tool definitions"
          min={0}
          max={c.contextWindow}
          value={c.toolTokens}
          high={c.searchThresholdTokens}
          optimum={0}
        />
      </summary>
      <div className="context-meter__detail">
        <p>
          {c.toolCount} tool{c.toolCount === 1 ? '' : 's'} from {c.servers.length} connected server{c.servers.length === 1 ? '' : 's'}
          {c.instructionTokens > 0 ? `, plus ${n(c.instructionTokens)} tokens of server instructions` : ''}.{' '}
          {c.mode === 'search'
            ? `That is more than ${n(c.searchThresholdTokens)} tokens, so a new conversation gets two search tools instead of every definition.`
            : c.toolSearch === 'off'
              ? 'Tool search is off: the model gets every definition.'
              : `Above ${n(c.searchThresholdTokens)} tokens the model would get two search tools instead.`}
        </p>
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
}
