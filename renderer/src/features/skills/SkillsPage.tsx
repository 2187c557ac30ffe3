import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { SkillServerData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { SkillRow } from './SkillRow';
import './skills.css';

/** Skills whose name, description, URI or server holds every word of the search. */
function filtered(servers: readonly SkillServerData[], search: string): SkillServerData[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...servers];
  return servers
    .map((group) => ({
      ...group,
      skills: group.skills.filter((skill) => {
        const text = `${skill.name} ${skill.description} ${skill.uri} ${skill.server}`.toLowerCase();
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((group) => group.skills.length > 0);
}

/**
 * The Skills page: the skills each ready server publishes (the same name on two servers shows
 * twice, each under its server), searchable, with where the person stands on each and "View
 * files". Listing reads nothing of a skill's files.
 */
export function SkillsPage() {
  const api = useHarbor();
  const load = useCallback(() => api.skills.list({}), [api]);
  const [state, reload] = useResult(load);
  const [search, setSearch] = useState('');
  const searchId = useId();
  // A server that starts, stops or changes; a skill approved from the chat's dialog.
  useEffect(() => api.on.servers.changed(() => reload()), [api, reload]);
  useEffect(() => api.on.consent.resolved(() => reload()), [api, reload]);
  const groups = useMemo(() => (state.status === 'ready' ? filtered(state.value, search) : []), [state, search]);
  const total = state.status === 'ready' ? state.value.reduce((sum, group) => sum + group.skills.length, 0) : 0;

  return (
    <>
      <PageHeader title="Skills">
        Instructions servers publish for the model, loaded only when needed and only with your approval. An approval is pinned to the skill’s files: when one
        changes, Harbor asks again.
      </PageHeader>
      <div className="search skills-search">
        <label htmlFor={searchId} className="visually-hidden">
          Search skills
        </label>
        <input id={searchId} className="input" type="search" placeholder="Search skills by name, description or server" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {state.status === 'loading' ? <Loading label="Loading skills…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} /> : null}
      {state.status === 'ready' && total === 0 && state.value.every((group) => !group.error) ? (
        <EmptyState title="No skills">
          <p>None of the connected servers publishes skills.</p>
        </EmptyState>
      ) : null}
      {state.status === 'ready' && total > 0 && groups.length === 0 ? <p className="muted">No skill matches “{search}”.</p> : null}
      {groups.map((group) =>
        group.skills.length > 0 || group.error ? (
          <section key={group.server} className="skills-group" aria-label={`Skills of ${group.server}`}>
            <h2 className="skills-group__title">{group.server}</h2>
            {group.error ? <p className="notice notice--error">Its skills could not be listed: {group.error}</p> : null}
            <ul className="cards">
              {group.skills.map((skill) => (
                <SkillRow key={skill.uri} skill={skill} onChanged={reload} />
              ))}
            </ul>
          </section>
        ) : null,
      )}
    </>
  );
}
