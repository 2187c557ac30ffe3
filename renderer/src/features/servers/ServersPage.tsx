import { PageHeader } from '../../ui/PageHeader';
import { ServerList } from './ServerList';
import { useServers } from './use-servers';

export function ServersPage() {
  const [state, reload] = useServers();
  return (
    <>
      <PageHeader title="Servers">The MCP servers Harbor connects to, local and remote.</PageHeader>
      <ServerList state={state} onRetry={reload} />
    </>
  );
}
