import './chips.css';
import { Info } from 'lucide-react';
import { memo } from 'react';
import { visibleText } from '../../lib/visible-text';
import { sameRow, type CallProgress, type Row } from './conversation-model';
import { CallApprovals } from './chat-approvals';
import { CodeCard } from './CodeCard';
import { LazyMarkdown } from './LazyMarkdown';
import { CopyAction, RegenerateAction, useMessageCommands } from './MessageActions';
import { ProblemCard } from './ProblemCard';
import { ToolCallCard } from './ToolCallCard';
import { UserMessage } from './UserMessage';

interface Props {
  readonly row: Row;
  readonly progress?: CallProgress | undefined;
  readonly onAttach?: ((server: string, uri: string, title: string) => void) | undefined;
  /** Stops the running turn (a script's card offers it). */
  readonly onStop?: (() => void) | undefined;
}

/**
 * One row of the conversation: the person's message (a bubble), the model's text (flowing
 * Markdown with Copy and, at the end of a turn, Regenerate), a tool call, Harbor's note, or a
 * failed turn with Retry.
 */
export const MessageRow = memo(
  function MessageRow({ row, progress, onAttach, onStop }: Props) {
    if (row.kind === 'working') {
      return (
        <p className="msg msg--working" role="status">
          <span className="loading__dot" aria-hidden="true" /> Working…
        </p>
      );
    }
    if (row.kind === 'turnError') return row.turn.error ? <TurnProblem turnId={row.turn.id} error={row.turn.error} /> : null;
    const { item } = row;
    switch (item.kind) {
      case 'user':
        return <UserMessage item={item} turnId={row.turnId} branch={row.branch} />;
      case 'assistant':
        return (
          <div className="msg msg--assistant">
            <LazyMarkdown text={item.text} cacheKey={row.key} deferFirstParse />
            {row.regenerate ? (
              <div className="msg__actions">
                <CopyAction text={item.text} />
                <RegenerateAction turnId={row.turnId} />
              </div>
            ) : (
              <div className="msg__float msg__hover">
                <CopyAction text={item.text} />
              </div>
            )}
          </div>
        );
      case 'note':
        return (
          <div className="msg msg--note" role="note">
            <Info className="msg__note-icon" aria-hidden="true" size={15} />
            <p>{item.text}</p>
            {row.regenerate ? (
              <div className="msg__actions">
                <RegenerateAction turnId={row.turnId} />
              </div>
            ) : null}
          </div>
        );
      case 'missing':
        return (
          <div className="msg msg--note msg--missing" role="note" aria-label="Servers missing from this turn">
            <Info className="msg__note-icon" aria-hidden="true" size={15} />
            <ul>
              {item.servers.map((m) => (
                <li key={m.server}>
                  Not available this turn — <a href={`#/servers/${encodeURIComponent(m.server)}`}>{visibleText(m.server)}</a>: {visibleText(m.reason)}
                </li>
              ))}
            </ul>
          </div>
        );
      case 'toolCall':
        // A question about this call (consent) is asked right here, with the call.
        if (item.call.name === 'run_code')
          return (
            <>
              <CodeCard call={item.call} onStop={onStop} />
              <CallApprovals callId={item.call.id} />
            </>
          );
        return (
          <ToolCallCard call={item.call} turnId={row.turnId} progress={progress} onAttach={onAttach}>
            <CallApprovals callId={item.call.id} />
          </ToolCallCard>
        );
    }
  },
  (a, b) => sameRow(a.row, b.row) && a.progress === b.progress && a.onAttach === b.onAttach && a.onStop === b.onStop,
);

function TurnProblem({ turnId, error }: { readonly turnId: string; readonly error: NonNullable<Extract<Row, { kind: 'turnError' }>['turn']['error']> }) {
  const commands = useMessageCommands();
  const title = error.code === 'MODEL_ERROR' || error.code === 'MODEL_NOT_CONFIGURED' ? 'The model failed' : 'This turn failed';
  return <ProblemCard error={error} title={title} onRetry={commands ? () => commands.regenerate(turnId) : undefined} retryDisabled={commands?.busy} />;
}
