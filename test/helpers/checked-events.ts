import { events } from '../../preload/contract';
import { HostEvents } from '../../main/host/events';

/** An event bus that checks every payload against the contract, as the Host's are under the tests. */
export function checkedEvents(): HostEvents {
  return new HostEvents({ schemas: events });
}
