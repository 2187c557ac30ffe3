import type { HarborError } from '../errors';
import { gatherOffer, type OfferSource } from '../tools/offer';
import type { Toolset } from '../tools/toolsets';
import type { ApiTool } from './declarations';

/** What gathering the script API needs from the Host: the one gatherer's source, and what the person turned off. */
export interface ApiSource extends OfferSource {
  /** Tools of a server the person turned off. */
  disabledTools(server: string): ReadonlySet<string>;
}

export interface GatheredApi {
  readonly tools: readonly ApiTool[];
  /** Enabled servers that could not be reached, with why. */
  readonly unavailable: readonly { readonly server: string; readonly error: HarborError }[];
}

/**
 * The script API of `harbor exec`, from the one gatherer of offered tools (tools/offer.ts): the
 * tools a model in a turn could reach, as the person approved them, within the toolset if one is
 * given. A server that cannot be reached is left out and reported; a launch that needs consent no
 * one can give here is thrown, so no script starts without it.
 */
export async function gatherApi(source: ApiSource, toolset?: Toolset): Promise<GatheredApi> {
  const gathered = await gatherOffer(source, { disabledTools: (server) => source.disabledTools(server), ...(toolset ? { toolset } : {}) });
  if (gathered.consentNeeded) throw gathered.consentNeeded;
  return { tools: gathered.index.tools.map((t) => ({ server: t.server, tool: t.tool })), unavailable: gathered.unavailable };
}
