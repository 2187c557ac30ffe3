import type { Tool } from '@modelcontextprotocol/client';
import { asHarborError, type HarborError } from '../errors';
import type { ApiTool } from './declarations';

/** What gathering the script API needs from the Host. */
export interface ApiSource {
  listServers(): readonly { readonly name: string; readonly enabled: boolean }[];
  catalog(server: string): Promise<{ readonly tools: readonly Tool[] }>;
  /** Tools of a server the person turned off. */
  disabledTools(server: string): ReadonlySet<string>;
}

export interface GatheredApi {
  readonly tools: readonly ApiTool[];
  /** Enabled servers that could not be reached, with why. */
  readonly unavailable: readonly { readonly server: string; readonly error: HarborError }[];
}

/**
 * Every enabled tool of every enabled server, connecting them as needed: the script API of
 * `harbor exec`. A server that cannot be reached is left out and reported; a launch that needs
 * consent no one can give here is thrown, so no script starts without it.
 */
export async function gatherApi(source: ApiSource): Promise<GatheredApi> {
  const enabled = source.listServers().filter((s) => s.enabled);
  const results = await Promise.all(
    enabled.map(async ({ name }) => {
      try {
        return { name, tools: (await source.catalog(name)).tools };
      } catch (error) {
        return { name, error: asHarborError(error) };
      }
    }),
  );
  const consent = results.find((r) => r.error && (r.error.code === 'CONSENT_REQUIRED' || r.error.code === 'CONSENT_STALE'));
  if (consent?.error) throw consent.error;
  const tools: ApiTool[] = [];
  const unavailable: { server: string; error: HarborError }[] = [];
  for (const result of results) {
    if (result.error) {
      unavailable.push({ server: result.name, error: result.error });
      continue;
    }
    const disabled = source.disabledTools(result.name);
    for (const tool of result.tools ?? []) if (!disabled.has(tool.name)) tools.push({ server: result.name, tool });
  }
  return { tools, unavailable };
}
