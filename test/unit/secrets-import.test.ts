import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import type { ServerConfig } from '../../main/host/registry/schema';
import { secretNameFor } from '../../preload/contract';
import { applySecretMoves, planSecretMoves } from '../../main/host/import/secret-moves';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';

const servers: Array<{ name: string; config: ServerConfig }> = [
  { name: 'GitHub', config: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_literal0001', API_URL: 'https://api.github.com' } } },
  { name: 'remote', config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer tok-literal-0002', 'X-Api-Key': 'key-${input:x}-tail' } } },
  { name: 'clean', config: { command: 'node' } },
];
const findings = [
  { server: 'GitHub', where: 'env' as const, key: 'GITHUB_TOKEN' },
  { server: 'remote', where: 'headers' as const, key: 'Authorization' },
  { server: 'remote', where: 'headers' as const, key: 'X-Api-Key' },
];

describe('moving imported literal secrets into the keychain', () => {
  it('names secrets after server and key, keeps an auth scheme in the registry, and skips values mixed with references', async () => {
    expect(secretNameFor('My Server!', 'GITHUB_TOKEN')).toBe('my-server-github_token');
    const store = new MemorySecretStore();
    const plan = await planSecretMoves(servers, findings, store);
    expect(plan.servers[0]!.config).toEqual({ command: 'npx', env: { GITHUB_TOKEN: '${secret:github-github_token}', API_URL: 'https://api.github.com' } });
    expect(plan.servers[1]!.config).toMatchObject({ headers: { Authorization: 'Bearer ${secret:remote-authorization}', 'X-Api-Key': 'key-${input:x}-tail' } });
    expect(plan.servers[2]).toBe(servers[2]);
    expect(plan.moves.map((m) => [m.server, m.key, m.secret, m.value, m.reused])).toEqual([
      ['GitHub', 'GITHUB_TOKEN', 'github-github_token', 'ghp_literal0001', false],
      ['remote', 'Authorization', 'remote-authorization', 'tok-literal-0002', false],
    ]);
    expect(plan.notMoved).toEqual([{ server: 'remote', where: 'headers', key: 'X-Api-Key' }]);
    expect(await store.list()).toEqual([]); // planning writes nothing

    await applySecretMoves(plan.moves, store);
    expect(await store.get('github-github_token')).toBe('ghp_literal0001');
    expect(await store.get('remote-authorization')).toBe('tok-literal-0002');
  });

  it('reuses a name that holds the same value and never overwrites one that holds another', async () => {
    const store = new MemorySecretStore({ 'github-github_token': 'ghp_literal0001', 'remote-authorization': 'someone-else' });
    const plan = await planSecretMoves(servers, findings, store);
    expect(plan.moves.map((m) => [m.secret, m.reused])).toEqual([
      ['github-github_token', true],
      ['remote-authorization-2', false],
    ]);
    await applySecretMoves(plan.moves, store);
    expect(await store.get('remote-authorization')).toBe('someone-else');
    expect(await store.get('remote-authorization-2')).toBe('tok-literal-0002');
  });

  it('all or nothing: when a write fails, the secrets written before it are removed again', async () => {
    class FailingOn extends MemorySecretStore {
      override async set(name: string, value: string): Promise<void> {
        if (name === 'remote-authorization') throw new HarborError('KEYCHAIN_UNAVAILABLE', 'locked');
        await super.set(name, value);
      }
    }
    const store = new FailingOn();
    const plan = await planSecretMoves(servers, findings, store);
    await expect(applySecretMoves(plan.moves, store)).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    expect(await store.list()).toEqual([]);
  });

  it('with nothing to move, the store is never asked', async () => {
    class Unreachable extends MemorySecretStore {
      override list(): Promise<string[]> {
        throw new Error('the store was used');
      }
    }
    const plan = await planSecretMoves(servers, [], new Unreachable());
    expect(plan.moves).toEqual([]);
    expect(plan.servers).toEqual(servers);
  });
});
