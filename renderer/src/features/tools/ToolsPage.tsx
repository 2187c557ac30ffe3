import { usePersisted } from '../../lib/persisted';
import { PageHeader } from '../../ui/PageHeader';
import { CatalogFrame } from '../catalog/CatalogFrame';
import { ToolsView } from './ToolsView';

export function ToolsPage() {
  const [search, setSearch] = usePersisted('tools.search', '');
  return (
    <>
      <PageHeader title="Tools">Actions your servers offer to the model. Turn off what it should not use; run one yourself to try it. Each call still asks for your approval.</PageHeader>
      <CatalogFrame noun="tools" count={(s) => s.counts.tools} search={search} onSearch={setSearch}>
        {(server, grouped) => <ToolsView key={server.name} server={server} search={search} grouped={grouped} />}
      </CatalogFrame>
    </>
  );
}
