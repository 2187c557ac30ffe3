import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ariaShortcut, formatShortcut } from '../../lib/shortcuts';
import { Modal } from '../consent/Modal';
import { PaletteIndex, type PaletteItem } from './palette-search';
import type { PaletteMode } from './palette-state';
import { usePaletteItems } from './use-palette-items';
import './palette.css';

interface Props {
  readonly mode: PaletteMode;
  readonly onClose: () => void;
}

/**
 * The command palette: a search box over servers, tools, resources, prompts, conversations,
 * Settings sections, views and commands, with the matches in a listbox grouped by kind. The box
 * keeps focus; Up/Down/Home/End move the highlighted match (aria-activedescendant), Enter or a
 * click opens it, Escape closes the palette and gives focus back.
 */
export function CommandPalette({ mode, onClose }: Props) {
  const { items, loading } = usePaletteItems();
  const [query, setQuery] = useState('');
  const [activeId, setActiveId] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const index = useMemo(() => new PaletteIndex(mode === 'shortcuts' ? items.filter((item) => item.shortcuts?.length) : items), [items, mode]);
  const sections = useMemo(() => index.find(query), [index, query]);
  const flat = useMemo(() => sections.flatMap((section) => section.items), [sections]);
  const active = flat.find((item) => item.id === activeId) ?? flat[0];
  const optionId = (item: PaletteItem) => `${baseId}-option-${flat.indexOf(item)}`;
  const activeOptionId = active ? optionId(active) : undefined;

  useEffect(() => {
    if (activeOptionId) document.getElementById(activeOptionId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeOptionId]);

  const run = (item: PaletteItem) => {
    onClose();
    item.run();
  };

  const move = (to: number) => {
    const item = flat[(to + flat.length) % flat.length];
    if (item) setActiveId(item.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const at = active ? flat.indexOf(active) : -1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at - 1),
      Home: () => move(0),
      End: () => move(flat.length - 1),
      Enter: () => {
        if (active) run(active);
      },
    };
    const action = keys[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    action();
  };

  const titleId = `${baseId}-title`;
  const listId = `${baseId}-list`;
  const count = flat.length;
  return (
    <Modal labelledBy={titleId} onCancel={onClose} initialFocus={inputRef} className="palette">
      <h2 id={titleId} className="visually-hidden">
        Command palette
      </h2>
      <div className="palette__search">
        <input
          ref={inputRef}
          className="input palette__input"
          type="text"
          role="combobox"
          aria-label={mode === 'shortcuts' ? 'Search keyboard shortcuts' : 'Search servers, tools, conversations and commands'}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOptionId}
          placeholder={mode === 'shortcuts' ? 'Keyboard shortcuts' : 'Search servers, tools, resources, prompts, conversations, commands…'}
          value={query}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setQuery(event.target.value);
            setActiveId(undefined);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <div id={listId} role="listbox" aria-label={mode === 'shortcuts' ? 'Keyboard shortcuts' : 'Matches'} className="palette__list">
        {sections.map((section) => {
          const groupId = `${baseId}-group-${section.group.replace(/\W+/g, '-')}`;
          return (
            <div key={section.group} role="group" aria-labelledby={groupId} className="palette__group">
              <div id={groupId} role="presentation" className="palette__group-title">
                {section.group}
              </div>
              {section.items.map((item) => (
                <div
                  key={item.id}
                  id={optionId(item)}
                  role="option"
                  aria-selected={item === active}
                  aria-keyshortcuts={item.shortcuts?.map((s) => ariaShortcut(s)).join(' ')}
                  className="palette__option"
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseMove={() => {
                    if (item !== active) setActiveId(item.id);
                  }}
                  onClick={() => run(item)}
                >
                  <span className="palette__text">
                    <span className="palette__title">{item.title}</span>
                    {item.detail ? <span className="palette__detail">{item.detail}</span> : null}
                  </span>
                  {item.shortcuts?.length ? (
                    <span className="palette__keys">
                      {item.shortcuts.map((shortcut) => (
                        <kbd key={shortcut} className="palette-key">{formatShortcut(shortcut)}</kbd>
                      ))}
                    </span>
                  ) : null}
                </div>
              ))}
            </div>
          );
        })}
      </div>
      <p className="palette__status muted" role="status">
        {count > 0 ? `${count} match${count === 1 ? '' : 'es'}${loading ? ', still loading…' : ''}` : loading ? 'Loading…' : 'Nothing matches.'}
      </p>
    </Modal>
  );
}
