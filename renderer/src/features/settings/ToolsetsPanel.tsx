import { useEffect, useId, useState } from 'react';
import type { SettingsData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData, type LoadState } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';

/** Each ready server's tool names, for the entries to choose from. */
function useCatalogChoices(): { server: string; tools: string[] }[] {
  const api = useHarbor();
  const [choices, setChoices] = useState<{ server: string; tools: string[] }[]>([]);
  useEffect(() => {
    let live = true;
    void (async () => {
      const servers = await api.servers.list({});
      if (!servers.ok) return;
      const ready = servers.value.filter((s) => s.enabled && s.state.kind === 'ready');
      const lists = await Promise.all(ready.map(async (s) => ({ server: s.name, catalog: await api.catalog.get({ name: s.name }) })));
      if (live) setChoices(lists.map(({ server, catalog }) => ({ server, tools: catalog.ok ? catalog.value.tools.map((t) => String(t.name)) : [] })));
    })();
    return () => {
      live = false;
    };
  }, [api]);
  return choices;
}

interface Props {
  readonly settings: SettingsData;
  readonly onSaved: () => void;
}

/**
 * Settings › Toolsets: create, rename and delete the registry's named toolsets and choose their
 * entries ("SERVER/TOOL", "SERVER/*") from the ready servers' catalogs. Each save is one
 * `settings.setToolset` (one registry edit under its lock); a rename saves the new name, then
 * removes the old one.
 */
export function ToolsetsPanel({ settings, onSaved }: Props) {
  const api = useHarbor();
  const toolsets = settings.toolsets ?? {};
  const names = Object.keys(toolsets).sort();
  const [selected, setSelected] = useState<string | undefined>(names[0]);
  const [name, setName] = useState(selected ?? '');
  const [entries, setEntries] = useState<Set<string>>(new Set(selected ? toolsets[selected] : []));
  const [state, setState] = useState<LoadState<unknown> | undefined>();
  const choices = useCatalogChoices();
  const nameId = useId();

  const pick = (next: string | undefined) => {
    setSelected(next);
    setName(next ?? '');
    setEntries(new Set(next ? (toolsets[next] ?? []) : []));
    setState(undefined);
  };

  const toggle = (entry: string) =>
    setEntries((current) => {
      const copy = new Set(current);
      if (copy.has(entry)) copy.delete(entry);
      else copy.add(entry);
      return copy;
    });

  const save = async () => {
    const target = name.trim();
    if (!target) return setState({ status: 'error', error: asErrorData('Give the toolset a name.') });
    setState({ status: 'loading' });
    const saved = await api.settings.setToolset({ name: target, entries: [...entries] });
    if (!saved.ok) return setState({ status: 'error', error: saved.error });
    if (selected && selected !== target) {
      const removed = await api.settings.setToolset({ name: selected, entries: null });
      if (!removed.ok) return setState({ status: 'error', error: removed.error });
    }
    setSelected(target);
    setState(undefined);
    onSaved();
  };

  const remove = async () => {
    if (!selected) return;
    setState({ status: 'loading' });
    const removed = await api.settings.setToolset({ name: selected, entries: null });
    if (!removed.ok) return setState({ status: 'error', error: removed.error });
    pick(undefined);
    onSaved();
  };

  const known = new Set(choices.flatMap((c) => [`${c.server}/*`, ...c.tools.map((t) => `${c.server}/${t}`)]));
  const others = [...entries].filter((entry) => !known.has(entry));
  return (
    <section className="panel" aria-labelledby={`${nameId}-title`}>
      <h2 id={`${nameId}-title`}>Toolsets</h2>
      <p className="muted">Named sets of tools a conversation can be limited to (the picker beside the message box). Saved in harbor.json’s “toolsets”.</p>
      <div className="actions">
        <label htmlFor={`${nameId}-pick`}>Toolset</label>
        <select id={`${nameId}-pick`} className="input" value={selected ?? ''} onChange={(e) => pick(e.target.value || undefined)}>
          <option value="">New toolset…</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input id={nameId} className="input" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </div>
      {choices.map((choice) => (
        <fieldset key={choice.server} className="toolsets__server">
          <legend>{visibleText(choice.server)}</legend>
          <label>
            <input type="checkbox" checked={entries.has(`${choice.server}/*`)} onChange={() => toggle(`${choice.server}/*`)} /> Every tool of {visibleText(choice.server)}
          </label>
          {choice.tools.map((tool) => (
            <label key={tool} className="toolsets__tool">
              <input type="checkbox" checked={entries.has(`${choice.server}/${tool}`)} disabled={entries.has(`${choice.server}/*`)} onChange={() => toggle(`${choice.server}/${tool}`)} />{' '}
              <code>{visibleText(`${choice.server}/${tool}`)}</code>
            </label>
          ))}
        </fieldset>
      ))}
      {others.length > 0 ? (
        <fieldset className="toolsets__server">
          <legend>Other entries (servers not connected)</legend>
          {others.map((entry) => (
            <label key={entry} className="toolsets__tool">
              <input type="checkbox" checked onChange={() => toggle(entry)} /> <code>{visibleText(entry)}</code>
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="actions">
        <button type="button" className="button button--primary" disabled={state?.status === 'loading'} onClick={() => void save()}>
          {selected ? 'Save toolset' : 'Create toolset'}
        </button>
        {selected ? (
          <button type="button" className="button" disabled={state?.status === 'loading'} onClick={() => void remove()}>
            Delete toolset
          </button>
        ) : null}
      </div>
      {state?.status === 'error' ? <ErrorMessage error={state.error} /> : null}
    </section>
  );
}
