import { usePersisted } from '../../lib/persisted';
import { PageHeader } from '../../ui/PageHeader';
import { CatalogFrame } from '../catalog/CatalogFrame';
import { PromptsView } from './PromptsView';

export function PromptsPage() {
  const [search, setSearch] = usePersisted('prompts.search', '');
  return (
    <>
      <PageHeader title="Prompts">Ready-made instructions your servers offer, with arguments you fill in. In a chat, type / to use one.</PageHeader>
      <CatalogFrame noun="prompts" count={(s) => s.counts.prompts} search={search} onSearch={setSearch}>
        {(server, grouped) => <PromptsView key={server.name} server={server} search={search} grouped={grouped} />}
      </CatalogFrame>
    </>
  );
}
