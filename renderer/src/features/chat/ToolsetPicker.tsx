import { useEffect, useId, useState } from 'react';
import { useHarbor } from '../../app/services';

interface Props {
  /** The open conversation's id ('' or undefined: a new one, not stored yet). */
  readonly conversationId: string | undefined;
  /** Its toolset as stored (absent: every tool). */
  readonly stored: string | undefined;
  /** The choice for a new conversation, sent with its first message. */
  readonly draft: string | undefined;
  readonly onDraftChange: (toolset: string | undefined) => void;
  /** A stored conversation's toolset changed (the list and the header show it). */
  readonly onSaved: () => void;
  readonly disabled?: boolean;
}

/**
 * The toolset picker beside the message box: limits the conversation to one of the registry's
 * toolsets (the model is offered only those tools, plus search_tools, run_code and load_skill,
 * which see only them too), or "All tools". A stored conversation remembers it at once; a new one
 * sends it with its first message.
 */
export function ToolsetPicker({ conversationId, stored, draft, onDraftChange, onSaved, disabled }: Props) {
  const api = useHarbor();
  const id = useId();
  const [names, setNames] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void api.settings.get({}).then((result) => {
      if (live && result.ok) setNames(Object.keys(result.value.toolsets ?? {}));
    });
    return () => {
      live = false;
    };
  }, [api]);
  const saved = conversationId !== undefined && conversationId !== '';
  const value = (saved ? stored : draft) ?? '';
  // A stored toolset the registry no longer has stays visible, so the person sees why turns fail.
  const options = value && !names.includes(value) ? [...names, value] : names;
  if (options.length === 0) return null;

  const choose = async (next: string) => {
    const toolset = next === '' ? undefined : next;
    setProblem(undefined);
    if (!saved) return onDraftChange(toolset);
    const result = await api.conversations.setToolset({ id: conversationId, toolset: toolset ?? null });
    if (result.ok) onSaved();
    else setProblem(result.error.message);
  };

  return (
    <div className="toolset-picker">
      <label htmlFor={id}>Toolset</label>
      <select id={id} className="input input--small" value={value} disabled={disabled} onChange={(e) => void choose(e.target.value)}>
        <option value="">All tools</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
            {names.includes(name) ? '' : ' (no longer in the registry)'}
          </option>
        ))}
      </select>
      {problem ? (
        <span role="alert" className="toolset-picker__problem">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
