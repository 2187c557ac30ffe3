/**
 * `harbor exec --yes` approves the launch of a script's server on every call it makes (#32 goal 4):
 * the launch key (canonical JSON + SHA-256 of the launch) is computed once per registry entry, as
 * its identity is, and an edited launch is a new entry with a new key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchKey } from '../../main/host/consent/identity';
import type { ServerConfig } from '../../main/host/registry/schema';
import { RegistryStore } from '../../main/host/registry/store';
import type { RegistryState } from '../../main/host/services/registry-state';
import { RegistryState as RealRegistryState } from '../../main/host/services/registry-state';
import { ServerIdentities } from '../../main/host/services/server-identities';

const dir = mkdtempSync(join(tmpdir(), 'harbor-launch-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ServerIdentities.launchKeyOf', () => {
  it('is the launch key of the entry as configured now, and a new one after the launch is edited', async () => {
    const path = join(dir, 'harbor.json');
    const write = (args: string[]) => writeFileSync(path, JSON.stringify({ mcpServers: { s: { command: 'node', args } } }));
    write(['a.js']);
    const state = new RealRegistryState(new RegistryStore(path), path, false);
    await state.reload();
    const identities = new ServerIdentities(state);
    const first = identities.launchKeyOf('s');
    expect(first).toBe(launchKey(state.server('s')!));
    expect(identities.launchKeyOf('s')).toBe(first);
    write(['b.js']);
    await state.reload();
    expect(identities.launchKeyOf('s')).not.toBe(first);
    expect(identities.launchKeyOf('s')).toBe(launchKey(state.server('s')!));
    expect(() => identities.launchKeyOf('nope')).toThrow(/No server named "nope"/);
  });

  it('reads and hashes an entry’s launch once, however many calls approve it', () => {
    let reads = 0;
    const config = {
      get command() {
        reads += 1;
        return 'node';
      },
      args: ['server.js'],
    } as unknown as ServerConfig;
    // The one thing ServerIdentities reads of the registry here: the entry by its name.
    const registry = { server: (name: string) => (name === 's' ? config : undefined) } as unknown as RegistryState;
    const identities = new ServerIdentities(registry);
    const key = identities.launchKeyOf('s');
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 100; i += 1) expect(identities.launchKeyOf('s')).toBe(key);
    expect(reads).toBe(afterFirst);
  });
});
