import { PanelLeftClose, PanelLeftOpen, SquarePen } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Conversation } from '../../../../preload/contract';
import { navigate } from '../../app/use-route';
import { Modal } from '../consent/Modal';
import { ActionsMenu } from './ActionsMenu';
import { IconButton } from './IconButton';
import { MODEL_SETTINGS_HREF } from './ProblemCard';

interface Props {
  readonly conversation: Conversation | undefined;
  readonly running: boolean;
  /** The conversations list: shown beside the chat (or as a drawer), or hidden. */
  readonly sidebar: { readonly shown: boolean; readonly controls: string; readonly toggle: () => void };
  readonly onNew: () => void;
  readonly onRename: (title: string) => Promise<boolean>;
  readonly onDelete: () => Promise<boolean>;
  readonly onExport: (format: 'markdown' | 'json') => Promise<boolean>;
  /** The model picker and the context meter, in the same row. */
  readonly children?: ReactNode;
  /** The conversation's toolset (absent: every tool). */
  readonly toolset?: string | undefined;
}

/**
 * The chat's one header row: the conversations toggle, the conversation's title (renamed in
 * place), the model and what its tools cost, a new conversation, and the rest in a menu
 * (rename, export, delete — which asks first — and the model's settings).
 */
export function ChatHeader({ conversation, running, sidebar, onNew, onRename, onDelete, onExport, children, toolset }: Props) {
  const inputId = useId();
  const confirmId = useId();
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState('');
  const saved = conversation !== undefined && conversation.id !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() && (await onRename(title.trim()))) setMode('view');
  };

  return (
    <header className="chat-header">
      <IconButton
        icon={sidebar.shown ? PanelLeftClose : PanelLeftOpen}
        label={sidebar.shown ? 'Hide conversations' : 'Show conversations'}
        aria-expanded={sidebar.shown}
        aria-controls={sidebar.controls}
        onClick={sidebar.toggle}
      />
      {mode === 'rename' ? (
        <form className="chat-header__rename" onSubmit={(e) => void submit(e)}>
          <label htmlFor={inputId} className="visually-hidden">
            Conversation title
          </label>
          <input id={inputId} className="input" value={title} maxLength={200} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setMode('view')} />
          <button type="submit" className="button button--small button--primary" disabled={!title.trim()}>
            Save
          </button>
          <button type="button" className="button button--small" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <h2 className="chat-header__title" title={conversation?.title}>
          {conversation?.title ?? 'Chat'}
        </h2>
      )}
      {toolset ? (
        <span className="chat-header__toolset" title={`The model is offered only the tools of the toolset "${toolset}"`}>
          Toolset: {toolset}
        </span>
      ) : null}
      <div className="chat-header__tools">{children}</div>
      {sidebar.shown ? null : <IconButton icon={SquarePen} label="New conversation" onClick={onNew} />}
      <ActionsMenu
        label="Conversation actions"
        actions={[
          { label: 'Rename', disabled: !saved, run: () => (setTitle(conversation?.title ?? ''), setMode('rename')) },
          { label: 'Export Markdown', disabled: !saved, run: () => void onExport('markdown') },
          { label: 'Export JSON', disabled: !saved, run: () => void onExport('json') },
          { label: 'Model settings', run: () => navigate(MODEL_SETTINGS_HREF) },
          { label: 'Delete', disabled: !saved || running, danger: true, run: () => setMode('delete') },
        ]}
      />
      {mode === 'delete' && conversation ? (
        <Modal labelledBy={confirmId} onCancel={() => setMode('view')} className="confirm-dialog">
          <div className="modal__body">
            <h2 id={confirmId} className="modal__title">
              Delete this conversation?
            </h2>
            <p>“{conversation.title}” and every message in it are deleted for good.</p>
            <div className="confirm-dialog__actions">
              <button type="button" className="button" onClick={() => setMode('view')}>
                Keep
              </button>
              <button type="button" className="button button--danger" onClick={() => void onDelete().then(() => setMode('view'))}>
                Delete
              </button>
            </div>
          </div>
        </Modal>
      ) : null}
    </header>
  );
}
