import type { ReactNode } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { formatTokens } from './ServerRow';

const SECRET_REF = /^\$\{secret:[^}]+\}$/;

interface Props {
  readonly server: ServerSummary;
  /** Its registry entry (undefined while loading or when the file is broken). */
  readonly config: Readonly<Record<string, unknown>> | undefined;
  readonly cost?: { readonly toolTokens: number; readonly instructionTokens: number } | undefined;
}

/** How the server is configured, as a person reads it: names of variables and headers, never their values. */
export function ConfigFacts({ server, config }: Pick<Props, 'server' | 'config'>) {
  const stdio = server.transport === 'stdio';
  const env = record(config?.env);
  const headers = record(config?.headers);
  const disabledTools = Array.isArray(config?.disabledTools) ? config.disabledTools.length : 0;
  return (
    <dl className="facts server-facts">
      <Fact label="Kind">{stdio ? 'Local program (stdio)' : config?.transport === 'sse' ? 'Remote, HTTP+SSE' : 'Remote, Streamable HTTP'}</Fact>
      <Fact label={stdio ? 'Command' : 'URL'}>
        <code>{visibleText(server.target)}</code>
      </Fact>
      {typeof config?.cwd === 'string' ? (
        <Fact label="Working folder">
          <code>{visibleText(config.cwd)}</code>
        </Fact>
      ) : null}
      {env.length > 0 ? <Fact label="Environment">{names(env)}</Fact> : null}
      {headers.length > 0 ? <Fact label="Headers">{names(headers)}</Fact> : null}
      {typeof config?.timeoutMs === 'number' ? <Fact label="Request timeout">{config.timeoutMs / 1000} s</Fact> : null}
      {disabledTools > 0 ? <Fact label="Tools turned off">{disabledTools}</Fact> : null}
    </dl>
  );
}

/** What the connected server said about itself: protocol and era, name, what it offers and declares, its cost. */
export function ConnectionFacts({ server, cost }: Pick<Props, 'server' | 'cost'>) {
  const ready = server.state.kind === 'ready';
  if (!server.protocolVersion && !server.serverInfo && !ready) return <p className="muted">Details about what it offers appear once it has connected.</p>;
  return (
    <dl className="facts server-facts">
      {server.protocolVersion ? (
        <Fact label="Protocol">
          {server.protocolVersion}
          {server.era ? ` (${server.era === 'modern' ? 'stateless' : 'with a session'})` : ''}
        </Fact>
      ) : null}
      {server.serverInfo ? (
        <Fact label="Reports itself as">
          {visibleText(server.serverInfo.name)} {visibleText(server.serverInfo.version)}
        </Fact>
      ) : null}
      {ready ? <Fact label="Offers">{describeCounts(server.counts)}</Fact> : null}
      {server.capabilities && server.capabilities.length > 0 ? (
        <Fact label="Capabilities">
          <ul className="capabilities" aria-label="Capabilities">
            {groupCapabilities(server.capabilities).map(([capability, features]) => (
              <li key={capability} className="capabilities__item">
                {capability}
                {features.length > 0 ? <span className="capabilities__features"> ({features.join(', ')})</span> : null}
              </li>
            ))}
          </ul>
        </Fact>
      ) : null}
      {ready && cost ? (
        <Fact label="Context cost">
          ~{formatTokens(cost.toolTokens + cost.instructionTokens)} tokens
          <span className="muted">
            {' '}
            (tool definitions {cost.toolTokens.toLocaleString()}, instructions {cost.instructionTokens.toLocaleString()})
          </span>
        </Fact>
      ) : null}
    </dl>
  );
}

function Fact({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function record(value: unknown): Array<[string, string]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
}

/** Variable or header names, each marked when its value is kept in the keychain. */
function names(entries: ReadonlyArray<[string, string]>): ReactNode {
  return (
    <span className="server-facts__names">
      {entries.map(([key, value], i) => (
        <span key={key}>
          {i > 0 ? ', ' : null}
          <code>{visibleText(key)}</code>
          {SECRET_REF.test(value) ? <span className="muted"> (keychain)</span> : null}
        </span>
      ))}
    </span>
  );
}

/** ["resources", "resources.subscribe", "tools"] → [["resources", ["subscribe"]], ["tools", []]]. */
function groupCapabilities(names: readonly string[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const [top = name, feature] = name.split('.', 2);
    const features = groups.get(top) ?? [];
    if (feature) features.push(feature);
    groups.set(top, features);
  }
  return [...groups];
}

export function describeCounts(counts: ServerSummary['counts']): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(counts.tools, 'tool'), plural(counts.resources + counts.resourceTemplates, 'resource'), plural(counts.prompts, 'prompt')].join(', ');
}
