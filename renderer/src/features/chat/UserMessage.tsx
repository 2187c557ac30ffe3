import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ChatItem } from '../../../../preload/contract';
import { FileChips } from './FileChips';
import { BranchSwitcher, CopyAction, EditAction, useMessageCommands } from './MessageActions';

type UserItem = Extract<ChatItem, { kind: 'user' }>;

interface Props {
  readonly item: UserItem;
  readonly turnId: string;
  /** The turns this message's versions opened (edits, regenerations), when there is more than one. */
  readonly branch?: readonly string[] | undefined;
}

/** The person's message: a quiet bubble on the right; beside it Copy, Edit (edit and resend as a new version) and its versions. */
export function UserMessage({ item, turnId, branch }: Props) {
  const commands = useMessageCommands();
  const [editing, setEditing] = useState(false);
  if (editing && commands) {
    return (
      <div className="msg msg--user">
        <EditMessage text={item.text} onCancel={() => setEditing(false)} onSend={(text) => commands.edit(turnId, text).then((ok) => ok && setEditing(false))} />
      </div>
    );
  }
  return (
    <div className="msg msg--user">
      <div className="msg__side">
        <span className="msg__hover">
          <CopyAction text={item.text} />
          <EditAction onEdit={() => setEditing(true)} />
        </span>
        {branch ? <BranchSwitcher turnId={turnId} siblings={branch} /> : null}
      </div>
      <div className="msg__bubble">
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
        {item.files?.length ? <FileChips files={item.files} label="Attached files" /> : null}
      </div>
    </div>
  );
}

interface EditProps {
  readonly text: string;
  readonly onCancel: () => void;
  readonly onSend: (text: string) => Promise<unknown>;
}

/** Editing a sent message: Enter (or Send) sends it as a new version, Escape leaves it as it was. */
function EditMessage({ text, onCancel, onSend }: EditProps) {
  const id = useId();
  const [value, setValue] = useState(text);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (value.trim() && value.trim() !== text.trim()) void onSend(value);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form className="msg__edit" onSubmit={submit} aria-label="Edit your message">
      <label htmlFor={id} className="visually-hidden">
        Edited message
      </label>
      <textarea id={id} className="input msg__edit-input" value={value} autoFocus onChange={(e) => setValue(e.target.value)} onKeyDown={onKeyDown} />
      <p className="msg__edit-hint muted">Sends as a new version; the earlier one stays reachable.</p>
      <div className="msg__edit-bar">
        <button type="button" className="button button--small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--small button--primary" disabled={!value.trim() || value.trim() === text.trim()}>
          Send
        </button>
      </div>
    </form>
  );
}
