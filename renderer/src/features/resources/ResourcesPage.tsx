import { usePersisted } from '../../lib/persisted';
import { PageHeader } from '../../ui/PageHeader';
import { CatalogFrame } from '../catalog/CatalogFrame';
import { ResourcesView } from './ResourcesView';

export function ResourcesPage() {
  const [search, setSearch] = usePersisted('resources.search', '');
  return (
    <>
      <PageHeader title="Resources">Data your servers expose — files, records, documents. Read one here, or attach it to a chat message.</PageHeader>
      <CatalogFrame noun="resources" count={(s) => s.counts.resources + s.counts.resourceTemplates} search={search} onSearch={setSearch}>
        {(server, grouped) => <ResourcesView key={server.name} server={server} search={search} grouped={grouped} />}
      </CatalogFrame>
    </>
  );
}
