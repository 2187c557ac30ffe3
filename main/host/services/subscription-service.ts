import type { ResourceSubscriptionsView } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { ServerControl } from './server-control';

/**
 * The resources the person subscribed to from the Resources view. A subscription lasts as long as
 * the server's entry (reconnects re-subscribe); an update arrives as `servers.changed` with reason
 * "resourceUpdated", and the view reads the resource again.
 */
export class SubscriptionService {
  constructor(private readonly servers: ServerControl) {}

  list(server: string): ResourceSubscriptionsView {
    const subscriptions = this.servers.connection(server).subscriptions;
    const supported = subscriptions.supported();
    return { server, ...(supported !== undefined ? { supported } : {}), uris: subscriptions.list() };
  }

  async subscribe(server: string, uri: string): Promise<ResourceSubscriptionsView> {
    const connection = await this.servers.ready(server);
    if (connection.subscriptions.supported() === false) {
      throw new HarborError('BAD_REQUEST', `"${server}" does not offer resource subscriptions; read the resource again to see changes.`);
    }
    await connection.subscriptions.add(uri);
    return this.list(server);
  }

  async unsubscribe(server: string, uri: string): Promise<ResourceSubscriptionsView> {
    await this.servers.connection(server).subscriptions.remove(uri);
    return this.list(server);
  }
}
