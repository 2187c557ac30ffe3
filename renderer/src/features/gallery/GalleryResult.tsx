import type { GalleryOptionData, GalleryServerData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

const TYPE_LABEL: Record<string, string> = { npm: 'npm', pypi: 'PyPI', oci: 'OCI (Docker)', nuget: 'NuGet', mcpb: 'MCP bundle', 'streamable-http': 'Remote (Streamable HTTP)', sse: 'Remote (SSE)' };

/** One server of the registry: what it is, where its code lives, and each way to run it with what it needs. */
export function GalleryResult({ server, onInstall }: { readonly server: GalleryServerData; readonly onInstall: (option: GalleryOptionData) => void }) {
  const title = server.title ?? server.name;
  return (
    <li className="gallery-result panel" aria-label={visibleText(title)}>
      <h2 className="gallery-result__title">
        {visibleText(title)} <span className="muted">{visibleText(server.version)}</span>
        {server.status && server.status !== 'active' ? <span className="badge badge--error">{visibleText(server.status)}</span> : null}
      </h2>
      <p className="muted">
        <code>{visibleText(server.name)}</code>
      </p>
      <p className="plain-text">{visibleText(server.description, { multiline: true })}</p>
      {server.repository ? (
        <p className="muted">
          Source: <code>{visibleText(server.repository.url)}</code>
          {server.repository.subfolder ? <> (in {visibleText(server.repository.subfolder)})</> : null}
        </p>
      ) : null}
      <ul className="gallery-result__options">
        {server.options.map((option) => (
          <li key={option.index} className="gallery-option">
            <div>
              <strong>{TYPE_LABEL[option.type] ?? visibleText(option.type)}</strong> <code>{visibleText(option.identifier)}</code>
              {option.version ? <span className="muted"> {visibleText(option.version)}</span> : null}
              {option.inputs.length > 0 ? (
                <p className="muted gallery-option__inputs">
                  Needs:{' '}
                  {option.inputs.map((input, i) => (
                    <span key={input.key}>
                      {i > 0 ? ', ' : ''}
                      <code>{visibleText(input.key)}</code>
                      {input.secret ? ' (secret)' : ''}
                      {input.required ? '' : ' (optional)'}
                    </span>
                  ))}
                </p>
              ) : null}
              {option.note ? <p className="muted">{visibleText(option.note)}</p> : null}
            </div>
            <button type="button" className="button button--small" disabled={!option.supported} onClick={() => onInstall(option)} aria-label={`Install ${title} (${TYPE_LABEL[option.type] ?? option.type})`}>
              {option.type === 'mcpb' ? 'Download and review…' : 'Install…'}
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}
