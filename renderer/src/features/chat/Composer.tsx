import { ArrowUp, Database, Paperclip, Square, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useHarbor } from '../../app/services';
import { useToastClearance } from '../../ui/toast-clearance';
import { AttachDialog } from './AttachDialog';
import type { Attachment, FileAttachment } from './chat-controller';
import { FileChips } from './FileChips';
import { IconButton } from './IconButton';
import { loadPromptCommands, matchCommands, type PromptCommand } from './prompt-commands';
import { PromptDialog } from './PromptDialog';
import { readFiles } from './read-files';
// Chips first: the composer's own chip spacing (composer.css) overrides theirs.
import './chips.css';
import './composer.css';

interface Props {
  /** Chat cannot work yet (no model): nothing can be typed or sent, and `disabledReason` says why. */
  readonly disabled: boolean;
  /** Why it is off, shown above the box and read as its description. */
  readonly disabledReason?: string;
  readonly running: boolean;
  readonly sending: boolean;
  readonly attachments: readonly Attachment[];
  readonly onAttachmentsChange: (attachments: Attachment[]) => void;
  /** Files from the person's computer for the next message. */
  readonly files: readonly FileAttachment[];
  readonly onFilesChange: (files: FileAttachment[]) => void;
  /** The model the message goes to: its name, and whether it takes images. */
  readonly model: { readonly name: string; readonly images: boolean };
  readonly onSend: (text: string, attachments: readonly Attachment[], files: readonly FileAttachment[]) => Promise<boolean>;
  readonly onStop: () => void;
  /** Changes each time the cursor should go to the message box (a new chat by Ctrl/⌘-N or the palette). */
  readonly focusRequest?: number;
}

const hasFiles = (data: DataTransfer | null) => !!data && [...data.types].includes('Files');

/** "/server.prompt" so far (no space yet): the slash menu is open. */
const SLASH = /^\/[^\s]*$/;

/**
 * The message box: Enter sends (Shift+Enter is a new line), Stop while the model works, files
 * from the computer (picked, dropped or pasted), a server's resource, and "/" for the servers'
 * prompts as slash commands.
 */
export function Composer({ disabled, disabledReason, running, sending, attachments, onAttachmentsChange, files, onFilesChange, model, onSend, onStop, focusRequest = 0 }: Props) {
  const api = useHarbor();
  const inputId = useId();
  const menuId = useId();
  const whyId = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusRequest > 0) textRef.current?.focus();
  }, [focusRequest]);
  const pickerRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<readonly string[]>([]);
  const [dragging, setDragging] = useState(false);
  const [attaching, setAttaching] = useState(false);
  const [commands, setCommands] = useState<readonly PromptCommand[] | undefined>();
  const [active, setActive] = useState(0);
  const [prompt, setPrompt] = useState<PromptCommand | undefined>();
  const [menuClosed, setMenuClosed] = useState(false);

  const slash = SLASH.test(text) && !menuClosed;
  const matches = slash && commands ? matchCommands(commands, text) : [];
  const menuOpen = slash && commands !== undefined;

  // The prompts are fetched when the person first types "/", and again when servers change.
  const wantsCommands = text.startsWith('/');
  useEffect(() => {
    if (!wantsCommands) return;
    let live = true;
    const load = () =>
      void loadPromptCommands(api).then((loaded) => {
        if (live) setCommands(loaded);
      });
    load();
    const off = api.on.servers.changed(load);
    return () => {
      live = false;
      off();
    };
  }, [api, wantsCommands]);

  const choose = (command: PromptCommand | undefined) => {
    if (!command) return;
    setPrompt(command);
  };

  const send = async () => {
    if (disabled || !text.trim() || sending || running) return;
    if (await onSend(text, attachments, files)) {
      setText('');
      onAttachmentsChange([]);
      onFilesChange([]);
      setRefused([]);
    }
  };

  const addFiles = async (list: readonly File[]) => {
    if (list.length === 0) return;
    const outcome = await readFiles(list, files, model);
    if (outcome.added.length) onFilesChange([...files, ...outcome.added]);
    setRefused(outcome.refused);
  };

  const onDrop = (event: DragEvent) => {
    if (disabled || !hasFiles(event.dataTransfer)) return;
    event.preventDefault();
    setDragging(false);
    void addFiles([...event.dataTransfer.files]);
  };

  const onPaste = (event: ClipboardEvent) => {
    const pasted = [...event.clipboardData.files];
    if (pasted.length === 0) return;
    event.preventDefault();
    void addFiles(pasted);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menuOpen && matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((a) => (a + step + matches.length) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(matches[Math.min(active, matches.length - 1)]);
        return;
      }
    }
    if (menuOpen && event.key === 'Escape') {
      event.preventDefault();
      setMenuClosed(true);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  // Notifications never cover the composer (its Send button included).
  const formRef = useRef<HTMLFormElement>(null);
  useToastClearance(formRef);

  const activeId = menuOpen && matches.length > 0 ? `${menuId}-${Math.min(active, matches.length - 1)}` : undefined;

  return (
    <>
      <form
        ref={formRef}
        className={`composer${dragging ? ' composer--dragging' : ''}`}
        onSubmit={submit}
        aria-label="Write a message"
        onDragOver={(event) => {
          if (!hasFiles(event.dataTransfer)) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        {disabled && disabledReason ? (
          <p id={whyId} className="composer__why">
            {disabledReason}
          </p>
        ) : null}
        {refused.length > 0 ? (
          <div className="composer__refused" role="alert">
            <ul>
              {refused.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <IconButton icon={X} label="Dismiss" onClick={() => setRefused([])} />
          </div>
        ) : null}
        {attachments.length > 0 ? (
          <ul className="chips composer__chips" aria-label="Attachments for the next message">
            {attachments.map((a, index) => (
              <li key={`${a.server}:${a.uri}`} className="chip">
                <span className="chip__server">{a.server}</span> {a.label}
                <button
                  type="button"
                  className="chip__remove"
                  aria-label={`Remove ${a.label}`}
                  onClick={() => onAttachmentsChange(attachments.filter((_, i) => i !== index))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {files.length > 0 ? (
          <FileChips files={files.map((f) => f.file)} label="Files for the next message" onRemove={(index) => onFilesChange(files.filter((_, i) => i !== index))} />
        ) : null}

        {menuOpen ? (
          <div className="slash-menu">
            {matches.length === 0 ? (
              <p className="muted slash-menu__empty">No prompt matches {text}.</p>
            ) : (
              <ul id={menuId} role="listbox" aria-label="Prompts">
                {matches.map((command, index) => (
                  <li
                    key={command.command}
                    id={`${menuId}-${index}`}
                    role="option"
                    aria-selected={index === Math.min(active, matches.length - 1)}
                    className="slash-menu__item"
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(command)}
                  >
                    <span className="slash-menu__command">{command.command}</span>
                    <span className="slash-menu__about">{command.title ?? command.description ?? ''}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : null}

        <label htmlFor={inputId} className="visually-hidden">
          Message
        </label>
        <textarea
          id={inputId}
          ref={textRef}
          className="input composer__input"
          rows={1}
          placeholder={disabled ? 'Chat needs a model' : 'Message the model — “/” for prompts, drop files to attach'}
          value={text}
          disabled={disabled}
          aria-describedby={disabled && disabledReason ? whyId : undefined}
          aria-controls={menuOpen ? menuId : undefined}
          aria-activedescendant={activeId}
          aria-autocomplete={menuOpen ? 'list' : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setMenuClosed(false);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div className="composer__bar">
          <IconButton icon={Paperclip} label="Attach files" disabled={disabled} onClick={() => pickerRef.current?.click()} />
          <input
            ref={pickerRef}
            type="file"
            multiple
            hidden
            onChange={(e) => {
              void addFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          <IconButton icon={Database} label="Attach resource" disabled={disabled} onClick={() => setAttaching(true)} />
          <span className="composer__hint">Enter sends · Shift+Enter new line</span>
          {running ? (
            <button type="button" className="button button--danger composer__stop" onClick={onStop}>
              <Square aria-hidden="true" size={14} /> Stop
            </button>
          ) : (
            <button type="submit" className="button button--primary composer__send" aria-label="Send" title="Send (Enter)" disabled={!text.trim() || sending}>
              <ArrowUp aria-hidden="true" size={16} />
            </button>
          )}
        </div>
        {dragging ? (
          <div className="composer__drop" aria-hidden="true">
            Drop files to attach them
          </div>
        ) : null}
      </form>
      {attaching ? (
        <AttachDialog
          onClose={() => setAttaching(false)}
          onAttach={(attachment) => {
            if (!attachments.some((a) => a.server === attachment.server && a.uri === attachment.uri)) onAttachmentsChange([...attachments, attachment]);
            setAttaching(false);
            textRef.current?.focus();
          }}
        />
      ) : null}
      {prompt ? (
        <PromptDialog
          prompt={prompt}
          onClose={() => setPrompt(undefined)}
          onUse={(rendered) => {
            setText(rendered);
            setPrompt(undefined);
            textRef.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}
