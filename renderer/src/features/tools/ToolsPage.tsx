import { useDeferredValue } from 'react';
import { usePersisted } from '../../lib/persisted';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { CatalogFrame } from '../catalog/CatalogFrame';
import { ToolsView } from './ToolsView';
import { TOOL_SEARCH_LIMIT, useToolSearch } from './use-tool-search';

export function ToolsPage() {
  const [search, setSearch] = usePersisted('tools.search', '');
  const matches = useToolSearch(search);
  // The search box answers each key at once; the fifty servers' lists follow in the background,
  // in slices React can interrupt when the next key comes.
  const listedSearch = useDeferredValue(search);
  const listedMatches = useDeferredValue(matches);
  return (
    <>
      <PageHeader title="Tools">Actions your servers offer to the model. Turn off what it should not use; run one yourself to try it. Each call still asks for your approval.</PageHeader>
      {matches.status === 'error' ? <ErrorMessage error={matches.error} /> : null}
      {matches.status === 'found' && matches.capped ? <p className="muted">Showing the best {TOOL_SEARCH_LIMIT} matches: add a word to narrow the search.</p> : null}
      <CatalogFrame noun="tools" count={(s) => s.counts.tools} search={search} onSearch={setSearch}>
        {(server, grouped) => <ToolsView key={server.name} server={server} search={listedSearch} matches={listedMatches} grouped={grouped} />}
      </CatalogFrame>
    </>
  );
}
