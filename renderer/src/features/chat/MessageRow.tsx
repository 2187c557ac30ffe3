import './chips.css';
import { memo } from 'react';
import { ErrorMessage } from '../../ui/ErrorMessage';
import type { CallProgress, Row } from './conversation-model';
import { CodeCard } from './CodeCard';
import { Markdown } from './Markdown';
import { ToolCallCard } from './ToolCallCard';

interface Props {
  readonly row: Row;
  readonly progress?: CallProgress | undefined;
  readonly onAttach?: ((server: string, uri: string, title: string) => void) | undefined;
  /** Stops the running turn (a script's card offers it). */
  readonly onStop?: (() => void) | undefined;
}

/** One row of the conversation: the person's message, the model's text (Markdown), a tool call, or Harbor's note. */
export const MessageRow = memo(function MessageRow({ row, progress, onAttach, onStop }: Props) {
  if (row.kind === 'working') {
    return (
      <p className="msg msg--working" role="status">
        <span className="loading__dot" aria-hidden="true" /> Working…
      </p>
    );
  }
  if (row.kind === 'turnError') return row.turn.error ? <ErrorMessage error={row.turn.error} /> : null;
  const { item } = row;
  switch (item.kind) {
    case 'user':
      return (
        <div className="msg msg--user">
          <p className="msg__who">You</p>
          <p className="plain-text">{item.text}</p>
          {item.attachments?.length ? (
            <ul className="chips" aria-label="Attached resources">
              {item.attachments.map((a) => (
                <li key={`${a.server}:${a.uri}`} className="chip">
                  <span className="chip__server">{a.server}</span> {a.uri}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      );
    case 'assistant':
      return (
        <div className="msg msg--assistant">
          <p className="msg__who">Assistant</p>
          <Markdown text={item.text} />
        </div>
      );
    case 'note':
      return (
        <p className="msg msg--note" role="note">
          {item.text}
        </p>
      );
    case 'toolCall':
      if (item.call.name === 'run_code') return <CodeCard call={item.call} onStop={onStop} />;
      return <ToolCallCard call={item.call} progress={progress} onAttach={onAttach} />;
  }
});
