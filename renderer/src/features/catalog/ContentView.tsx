/**
 * MCP content as a person reads it. Everything here is server data: text is rendered as text,
 * never as HTML; an image is shown only as a data: URI of a raster image type (never a URL the
 * server chose, which would be a tracking beacon or worse); anything else is described, not run.
 */
import { prettyJson } from '../../lib/pretty-json';
import { imageSource } from '../../lib/image-source';

type Block = Record<string, unknown>;

const isBlock = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** How big base64 data is once decoded, in words. */
export function describeSize(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function ContentBlocks({ blocks }: { readonly blocks: readonly unknown[] }) {
  if (blocks.length === 0) return <p className="muted">No content.</p>;
  return (
    <div className="content-blocks">
      {blocks.map((block, i) => (
        <ContentBlock key={i} block={block} />
      ))}
    </div>
  );
}

export function ContentBlock({ block }: { readonly block: unknown }) {
  if (!isBlock(block)) return <JsonText value={block} />;
  switch (block.type) {
    case 'text':
      return <pre className="content-text">{str(block.text) ?? ''}</pre>;
    case 'image': {
      const src = imageSource(block.mimeType, block.data);
      return src ? (
        <img className="content-image" src={src} alt={`Image (${str(block.mimeType)}) from the server`} />
      ) : (
        <p className="muted">An image of type {str(block.mimeType) ?? 'unknown'} ({describeSize(str(block.data) ?? '')}), not shown.</p>
      );
    }
    case 'audio':
      return <p className="muted">Audio ({str(block.mimeType) ?? 'unknown type'}, {describeSize(str(block.data) ?? '')}).</p>;
    case 'resource':
      return isBlock(block.resource) ? <ResourceContent content={block.resource} /> : <JsonText value={block} />;
    case 'resource_link':
      return (
        <p className="content-link">
          Link to a resource: <strong>{str(block.title) ?? str(block.name) ?? ''}</strong> <code>{str(block.uri) ?? ''}</code>
          {str(block.mimeType) ? <span className="muted"> ({str(block.mimeType)})</span> : null}
        </p>
      );
    default:
      return <JsonText value={block} />;
  }
}

/** One item of a resources/read result (or an embedded resource): text as text, binaries by size. */
export function ResourceContent({ content }: { readonly content: Block }) {
  const text = str(content.text);
  const blob = str(content.blob);
  const mimeType = str(content.mimeType);
  const image = blob === undefined ? undefined : imageSource(mimeType, blob);
  return (
    <figure className="resource-content">
      <figcaption className="muted">
        <code>{str(content.uri) ?? ''}</code>
        {mimeType ? ` · ${mimeType}` : ''}
      </figcaption>
      {text !== undefined ? (
        <pre className="content-text">{text}</pre>
      ) : blob !== undefined ? (
        image ? (
          <img className="content-image" src={image} alt={`Image ${str(content.uri) ?? ''}`} />
        ) : (
          <p className="muted">Binary content ({mimeType ?? 'unknown type'}), {describeSize(blob)} to download — not shown here.</p>
        )
      ) : (
        <p className="muted">Empty.</p>
      )}
    </figure>
  );
}

export function JsonText({ value }: { readonly value: unknown }) {
  return <pre className="content-json">{prettyJson(value)}</pre>;
}

/**
 * A tool result's body, wherever a result is shown (a run from the Tools view, a task's result):
 * its content blocks (marked when the tool reports an error) and its structured content on demand.
 */
export function ToolResultBody({ result }: { readonly result: { readonly content?: unknown; readonly isError?: unknown; readonly structuredContent?: unknown } }) {
  const content = Array.isArray(result.content) ? result.content : [];
  return (
    <>
      <div className={result.isError === true ? 'notice notice--error' : undefined}>
        <ContentBlocks blocks={content} />
      </div>
      {result.structuredContent !== undefined ? (
        <details>
          <summary>Structured content</summary>
          <JsonText value={result.structuredContent} />
        </details>
      ) : null}
    </>
  );
}
