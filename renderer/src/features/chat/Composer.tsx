import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useHarbor } from '../../app/services';
import { AttachDialog } from './AttachDialog';
import type { Attachment } from './chat-controller';
import { loadPromptCommands, matchCommands, type PromptCommand } from './prompt-commands';
import { PromptDialog } from './PromptDialog';
// Chips first: the composer's own chip spacing (composer.css) overrides theirs.
import './chips.css';
import './composer.css';

interface Props {
  /** No model: the box stays usable for prompts, but Send explains first. */
  readonly disabled: boolean;
  readonly running: boolean;
  readonly sending: boolean;
  readonly attachments: readonly Attachment[];
  readonly onAttachmentsChange: (attachments: Attachment[]) => void;
  readonly onSend: (text: string, attachments: readonly Attachment[]) => Promise<boolean>;
  readonly onStop: () => void;
}

/** "/server.prompt" so far (no space yet): the slash menu is open. */
const SLASH = /^\/[^\s]*$/;

/**
 * The message box: Enter sends (Shift+Enter is a new line), Stop while the model works, attach a
 * resource, and "/" for the servers' prompts as slash commands.
 */
export function Composer({ disabled, running, sending, attachments, onAttachmentsChange, onSend, onStop }: Props) {
  const api = useHarbor();
  const inputId = useId();
  const menuId = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
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
    if (!text.trim() || sending || running) return;
    if (await onSend(text, attachments)) {
      setText('');
      onAttachmentsChange([]);
    }
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

  const activeId = menuOpen && matches.length > 0 ? `${menuId}-${Math.min(active, matches.length - 1)}` : undefined;

  return (
    <>
      <form className="composer" onSubmit={submit} aria-label="Write a message">
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
          rows={3}
          placeholder={disabled ? 'Add a model to chat — “/” still lists your servers’ prompts' : 'Message the model — “/” for your servers’ prompts'}
          value={text}
          aria-controls={menuOpen ? menuId : undefined}
          aria-activedescendant={activeId}
          aria-autocomplete={menuOpen ? 'list' : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setMenuClosed(false);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="composer__bar">
          <button type="button" className="button button--small" onClick={() => setAttaching(true)}>
            Attach resource
          </button>
          <span className="composer__hint muted">Enter sends · Shift+Enter new line</span>
          {running ? (
            <button type="button" className="button button--danger" onClick={onStop}>
              Stop
            </button>
          ) : null}
          <button type="submit" className="button button--primary" disabled={!text.trim() || sending || running}>
            {sending ? 'Sending…' : 'Send'}
          </button>
        </div>
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
