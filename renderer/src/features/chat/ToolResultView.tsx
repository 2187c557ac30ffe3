import { useState } from 'react';
import type { ChatToolResult } from '../../../../preload/contract';
import { imageSource } from '../../lib/image-source';
import { StructuredView } from './StructuredView';

type Block = Record<string, unknown>;

/** Characters of a text part shown before "Show all". */
const LONG_TEXT = 4_000;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** JSON a tool returned as text (an object or a list), parsed; undefined for anything else. */
function jsonText(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed) || trimmed.length < 2) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A text part: JSON as a table or tree, long text cut until the person asks for all of it. */
function TextBlock({ text }: { readonly text: string }) {
  const [all, setAll] = useState(false);
  const json = jsonText(text);
  if (json !== undefined) return <StructuredView value={json} label="JSON" />;
  const long = text.length > LONG_TEXT;
  return (
    <>
      <pre className="result__text">{long && !all ? `${text.slice(0, LONG_TEXT)}…` : text}</pre>
      {long ? (
        <button type="button" className="button button--small button--quiet" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show all ${text.length.toLocaleString('en-US')} characters`}
        </button>
      ) : null}
    </>
  );
}

function ContentBlock({ block, onAttach }: { readonly block: Block; readonly onAttach?: ((uri: string, title: string) => void) | undefined }) {
  switch (block.type) {
    case 'text':
      return <TextBlock text={str(block.text) ?? ''} />;
    case 'image': {
      const src = imageSource(block.mimeType, block.data);
      return src ? (
        <img className="result__image" src={src} alt={`Image from the tool (${str(block.mimeType) ?? 'image'})`} />
      ) : (
        <p className="muted">[An image of type {str(block.mimeType) ?? 'unknown'} that Harbor does not show.]</p>
      );
    }
    case 'audio':
      return <p className="muted">[Audio ({str(block.mimeType) ?? 'unknown type'}), not played.]</p>;
    case 'resource_link': {
      const uri = str(block.uri) ?? '';
      const title = str(block.title) ?? str(block.name) ?? uri;
      return (
        <div className="result__link">
          <span className="result__link-label">Resource link</span> <strong>{title}</strong> <code>{uri}</code>
          {str(block.description) ? <p className="muted">{str(block.description)}</p> : null}
          {onAttach && uri ? (
            <button type="button" className="button button--small" onClick={() => onAttach(uri, title)}>
              Attach to next message
            </button>
          ) : null}
        </div>
      );
    }
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Block;
      const text = str(resource.text);
      const blob = str(resource.blob);
      return (
        <div className="result__resource">
          <p className="result__link-label">
            Resource <code>{str(resource.uri) ?? ''}</code>
          </p>
          {text !== undefined ? (
            <pre className="result__text">{text}</pre>
          ) : (
            <p className="muted">[Binary content{blob ? `, about ${Math.floor((blob.length * 3) / 4)} bytes` : ''}, not shown.]</p>
          )}
        </div>
      );
    }
    default:
      return (
        <div>
          <p className="muted">[{str(block.type) ?? 'Unknown'} content]</p>
          <StructuredView value={block} label="Content" />
        </div>
      );
  }
}

/**
 * A tool's result as the server sent it, every part as text or inert data: text in <pre>, images
 * only as inline raster data, resource links named (and attachable — the person decides), embedded
 * resources' text, structured content (and JSON sent as text) as a table or a tree.
 */
export function ToolResultView({ result, onAttach }: { readonly result: ChatToolResult; readonly onAttach?: (uri: string, title: string) => void }) {
  // A server that sends structuredContent usually repeats it as JSON text: shown once.
  const structured = result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  const blocks = result.content
    .filter((b): b is Block => typeof b === 'object' && b !== null)
    .filter((b) => !(structured !== undefined && b.type === 'text' && typeof b.text === 'string' && JSON.stringify(jsonText(b.text)) === structured));
  return (
    <div className={`result${result.isError ? ' result--error' : ''}`}>
      {blocks.length === 0 && result.structuredContent === undefined ? <p className="muted">The tool returned nothing.</p> : null}
      {blocks.map((block, index) => (
        <ContentBlock key={index} block={block} onAttach={onAttach} />
      ))}
      {result.structuredContent !== undefined ? <StructuredView value={result.structuredContent} /> : null}
      {result.truncatedBytes ? (
        <p className="muted">The model got a shortened copy: {result.truncatedBytes.toLocaleString()} bytes were cut.</p>
      ) : null}
    </div>
  );
}
