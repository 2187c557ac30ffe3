import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import type { LaunchSpec } from '../../main/host/servers/launch';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { Redactor } from '../../main/host/secrets/redactor';
import { findSecretRefs, resolveLaunchSecrets, resolveSecretString } from '../../main/host/secrets/references';

const stdio = (env: Record<string, string>, args: string[] = []): LaunchSpec => ({ transport: 'stdio', command: 'node', args, env });
const remote = (headers: Record<string, string>, url = 'https://mcp.example.com/mcp'): LaunchSpec => ({ transport: 'http', url, headers, legacySse: false });

async function rejection(promise: Promise<unknown>): Promise<HarborError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(HarborError);
  return error as HarborError;
}

describe('${secret:NAME} references', () => {
  it('finds names in a value', () => {
    expect(findSecretRefs('Bearer ${secret:gh} and ${secret:other.one} ${env:X}')).toEqual(['gh', 'other.one']);
    expect(findSecretRefs('plain')).toEqual([]);
  });

  it('resolves whole and embedded references in env and headers, and teaches the redactor every value', async () => {
    const store = new MemorySecretStore({ gh: 'ghp_0123456789', api: 'key-abcdef' });
    const redactor = new Redactor();
    const deps = { store, redactor };
    const env = await resolveLaunchSecrets('s', stdio({ TOKEN: '${secret:gh}', MIXED: 'a=${secret:api};b=${secret:gh}', PLAIN: 'x' }), deps);
    expect(env).toMatchObject({ env: { TOKEN: 'ghp_0123456789', MIXED: 'a=key-abcdef;b=ghp_0123456789', PLAIN: 'x' } });
    const headers = await resolveLaunchSecrets('r', remote({ Authorization: 'Bearer ${secret:gh}', 'X-Team': 'core' }), deps);
    expect(headers).toMatchObject({ headers: { Authorization: 'Bearer ghp_0123456789', 'X-Team': 'core' } });
    expect(redactor.mask('ghp_0123456789 key-abcdef')).toBe('*** ***');
  });

  it('returns a spec without references unchanged and leaves the input spec alone', async () => {
    const spec = stdio({ A: 'b' });
    expect(await resolveLaunchSecrets('s', spec, { store: new MemorySecretStore(), redactor: new Redactor() })).toBe(spec);
    const withRef = stdio({ T: '${secret:gh}' });
    await resolveLaunchSecrets('s', withRef, { store: new MemorySecretStore({ gh: 'value-1234' }), redactor: new Redactor() });
    expect(withRef).toMatchObject({ env: { T: '${secret:gh}' } });
  });

  it('a missing secret is SECRET_MISSING naming each secret, where it is used, and the command that sets it', async () => {
    const error = await rejection(
      resolveLaunchSecrets('github', stdio({ GITHUB_TOKEN: '${secret:gh-token}', OTHER: '${secret:set-one}', ALSO: '${secret:gh-token}' }), {
        store: new MemorySecretStore({ 'set-one': 'value-1234' }),
        redactor: new Redactor(),
      }),
    );
    expect(error.code).toBe('SECRET_MISSING');
    expect(error.message).toContain('"gh-token" (env.GITHUB_TOKEN, env.ALSO)');
    expect(error.message).toContain('harbor secret set gh-token');
    expect(error.message).not.toContain('set-one"');
  });

  it('refuses malformed names and references outside env/headers with CONFIG_INVALID', async () => {
    const deps = { store: new MemorySecretStore(), redactor: new Redactor() };
    const bad = await rejection(resolveLaunchSecrets('s', stdio({ T: '${secret:has space}' }), deps));
    expect(bad.code).toBe('CONFIG_INVALID');
    expect(bad.message).toContain('env.T');
    const inArgs = await rejection(resolveLaunchSecrets('s', stdio({}, ['--token', '${secret:gh}']), deps));
    expect(inArgs.code).toBe('CONFIG_INVALID');
    expect(inArgs.message).toContain('args[1]');
    expect(inArgs.message).toContain('"env"');
    const inUrl = await rejection(resolveLaunchSecrets('r', remote({}, 'https://x.test/mcp?key=${secret:gh}'), deps));
    expect(inUrl.message).toContain('url');
  });

  it('resolveSecretString resolves one value (a model API key) the same way', async () => {
    const deps = { store: new MemorySecretStore({ openai: 'sk-0123456789' }), redactor: new Redactor() };
    expect(await resolveSecretString('The model configuration', 'model.apiKey', '${secret:openai}', deps)).toBe('sk-0123456789');
    expect(await resolveSecretString('The model configuration', 'model.apiKey', 'literal', deps)).toBe('literal');
    const missing = await rejection(resolveSecretString('The model configuration', 'model.apiKey', '${secret:nope}', deps));
    expect(missing.message).toMatch(/^The model configuration needs a secret that is not set: "nope" \(model\.apiKey\)/);
  });
});
