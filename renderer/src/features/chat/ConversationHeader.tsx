import { useId, useState, type FormEvent } from 'react';
import type { Conversation } from '../../../../preload/contract';

interface Props {
  readonly conversation: Conversation;
  readonly running: boolean;
  readonly onRename: (title: string) => Promise<boolean>;
  readonly onDelete: () => Promise<boolean>;
  readonly onExport: (format: 'markdown' | 'json') => Promise<boolean>;
}

/** The open conversation's title and what can be done with it: rename, export (Markdown or JSON), delete. */
export function ConversationHeader({ conversation, running, onRename, onDelete, onExport }: Props) {
  const inputId = useId();
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const saved = conversation.id !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() && (await onRename(title.trim()))) setMode('view');
  };

  return (
    <div className="conv-header">
      {mode === 'rename' ? (
        <form className="conv-header__rename" onSubmit={(e) => void submit(e)}>
          <label htmlFor={inputId} className="visually-hidden">
            Conversation title
          </label>
          <input id={inputId} className="input conv-header__input" value={title} maxLength={200} autoFocus onChange={(e) => setTitle(e.target.value)} />
          <button type="submit" className="button button--primary" disabled={!title.trim()}>
            Save
          </button>
          <button type="button" className="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <h2 className="conv-header__title">{conversation.title}</h2>
      )}
      {mode === 'rename' ? null : saved ? (
        mode === 'delete' ? (
          <div className="conv-header__confirm" role="group" aria-label="Confirm delete">
            <span>Delete this conversation for good?</span>
            <button type="button" className="button button--danger" onClick={() => void onDelete().then((ok) => ok || setMode('view'))}>
              Delete
            </button>
            <button type="button" className="button" autoFocus onClick={() => setMode('view')}>
              Keep
            </button>
          </div>
        ) : (
          <div className="conv-header__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                setTitle(conversation.title);
                setMode('rename');
              }}
            >
              Rename
            </button>
            <button type="button" className="button button--small" onClick={() => void onExport('markdown')}>
              Export Markdown
            </button>
            <button type="button" className="button button--small" onClick={() => void onExport('json')}>
              Export JSON
            </button>
            <button type="button" className="button button--small button--danger" disabled={running} onClick={() => setMode('delete')}>
              Delete
            </button>
          </div>
        )
      ) : null}
    </div>
  );
}
