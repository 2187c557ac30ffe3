import type { Client } from '@modelcontextprotocol/client';
import type * as SkillsExtension from '@modelcontextprotocol/client/ext/skills';
import type { Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { ServerRef } from '../consent/identity';
import { HarborError } from '../errors';
import type { LogSink } from '../log/harbor-log';
import { declaresSkills } from '../servers/catalog-cache';
import type { CallOptions } from '../servers/connection-types';
import type { ServerConnection } from '../servers/connection';

/** What the skills need of a connection: requests with its timeouts, abort and sign-in policy. */
export type SkillConnection = Pick<ServerConnection, 'requestOn'>;

/** A skill as Harbor holds it: the entry the server published, and whose it is (the pair is its identity). */
export interface HeldSkill {
  readonly server: ServerRef;
  readonly entry: Skill;
}

/** The SDK's skills extension, imported by the first use: a command whose servers publish no skills never loads it (#32). */
export function skillsExtension(): Promise<typeof SkillsExtension> {
  return import('@modelcontextprotocol/client/ext/skills');
}

/** The SDK's skills client for one MCP client (one per connection: a new connection is a new client). */
const clients = new WeakMap<Client, SkillsClient>();
export async function skillsClientOf(client: Client): Promise<SkillsClient> {
  const { SkillsClient } = await skillsExtension();
  let skills = clients.get(client);
  if (!skills) clients.set(client, (skills = new SkillsClient(client, { skipInvalid: true })));
  return skills;
}

/**
 * Discovery: `skills/list` (every page) on a server that declared the extension, and `skills/get`
 * for a skill named only by its URI. Entries the SDK refuses (bad URIs, names, repeated URIs) are
 * left out and written to Harbor's log. Nothing of a skill's files is read here.
 */
export class SkillDiscovery {
  constructor(private readonly log: LogSink) {}

  async list(server: ServerRef, connection: SkillConnection, options: CallOptions = {}): Promise<HeldSkill[]> {
    const listing = await connection.requestOn('listing skills', options, async (client, requestOptions) => {
      // Not declared: not supported (the SDK's first test too), and its extension stays unloaded.
      if (!declaresSkills(client.getServerCapabilities())) return undefined;
      const skills = await skillsClientOf(client);
      return skills.supported ? skills.list({}, requestOptions) : undefined;
    });
    if (!listing) return [];
    for (const invalid of listing.invalid) {
      this.log.write('warn', {
        area: 'skills',
        server: server.name,
        message: `skills/list entry ${invalid.index} was refused: ${invalid.reason}`,
        fields: invalid.uri ? { uri: invalid.uri } : {},
      });
    }
    return listing.skills.map((entry) => ({ server, entry }));
  }

  async get(server: ServerRef, connection: SkillConnection, uri: string, options: CallOptions = {}): Promise<HeldSkill> {
    const entry = await connection.requestOn(`getting skill ${uri}`, options, async (client, requestOptions) => {
      const skills = await skillsClientOf(client);
      if (!skills.supported) throw new HarborError('BAD_REQUEST', `"${server.name}" does not publish skills (it did not declare the io.modelcontextprotocol/skills extension).`);
      return (await skills.get(uri, requestOptions)).skill;
    });
    return { server, entry };
  }
}
