/**
 * Another app's placeholders at import and in the registry: VS Code inputs filled from their
 * defaults or from values given, a password's value only where the keychain can take it, the
 * workspace of a `.vscode/mcp.json`, and what is left reported as the server's problem.
 */
import { describe, expect, it } from 'vitest';
import { importServers } from '../../main/host/import/formats';
import { serverEntryProblems } from '../../main/host/registry/entry-problems';
import { HarborError } from '../../main/host/errors';

const file = (inputs: unknown[], servers: Record<string, unknown>) => JSON.stringify({ inputs, servers });
const config = (result: ReturnType<typeof importServers>, name: string) => result.servers.find((s) => s.name === name)?.config;

describe('importing VS Code inputs', () => {
  const text = file(
    [
      { type: 'promptString', id: 'root-dir', description: 'Folder', default: '/srv/data' },
      { type: 'promptString', id: 'gh-token', description: 'GitHub token', password: true },
      { type: 'pickString', id: 'mode', options: ['a', 'b'] },
    ],
    {
      fs: { command: 'npx', args: ['-y', 'server-filesystem', '${input:root-dir}', '${workspaceFolder}'] },
      gh: { command: 'npx', args: ['server-github', '--mode=${input:mode}'], env: { GITHUB_TOKEN: '${input:gh-token}' } },
      remote: { type: 'http', url: 'https://e.com/mcp', headers: { Authorization: 'Bearer ${input:gh-token}' } },
      leaky: { command: 'tool', args: ['--token', '${input:gh-token}'] },
    },
  );

  it('applies an input default; a workspace file gets its folder; what has no value is left and reported', () => {
    const result = importServers(text, '/home/me/proj/.vscode/mcp.json', { home: '/home/me' });
    expect(config(result, 'fs')).toMatchObject({ args: ['-y', 'server-filesystem', '/srv/data', '/home/me/proj'] });
    expect(config(result, 'gh')).toMatchObject({ args: ['server-github', '--mode=${input:mode}'], env: { GITHUB_TOKEN: '${input:gh-token}' } });
    expect(result.inputsReferenced).toEqual([
      { id: 'root-dir', description: 'Folder', defined: true, servers: ['fs'], filled: 'default' },
      { id: 'mode', defined: true, servers: ['gh'] },
      { id: 'gh-token', description: 'GitHub token', password: true, defined: true, servers: ['gh', 'remote', 'leaky'] },
    ]);
    expect(result.secretsDetected).toEqual([]);
  });

  it("a user-level file's ${workspaceFolder} stays (no workspace is known)", () => {
    const result = importServers(text, '/home/me/.config/Code/User/mcp.json', { home: '/home/me' });
    expect(result.unresolvedVariables).toContainEqual({ server: 'fs', variable: '${workspaceFolder}', where: 'args[3]' });
  });

  it('values given fill inputs; a password goes only into env or headers, where it moves to the keychain', () => {
    const result = importServers(text, '/x/mcp.json', { home: '/home/me', inputs: { 'gh-token': 'ghp_given', mode: 'b' } });
    expect(config(result, 'gh')).toMatchObject({ args: ['server-github', '--mode=b'], env: { GITHUB_TOKEN: 'ghp_given' } });
    expect(config(result, 'remote')).toMatchObject({ headers: { Authorization: 'Bearer ghp_given' } });
    // Never into a command line (process lists): left as written, with a note saying where to put it.
    expect(config(result, 'leaky')).toMatchObject({ args: ['--token', '${input:gh-token}'] });
    expect(result.warnings.find((w) => w.server === 'leaky')?.message).toMatch(/args\[1\]: the password input \$\{input:gh-token\} cannot go into the command line or a URL/);
    expect(result.secretsDetected).toEqual([
      { server: 'gh', where: 'env', key: 'GITHUB_TOKEN' },
      { server: 'remote', where: 'headers', key: 'Authorization' },
    ]);
    expect(result.inputsReferenced.find((i) => i.id === 'gh-token')?.filled).toBe('given');
  });

  it('a password beside another unfilled placeholder is left as written (it could not move as one secret)', () => {
    const result = importServers(file([{ id: 'pw', password: true }], { a: { command: 'x', env: { URL: 'https://${input:pw}@${env:HOST}/db' } } }), '/x/mcp.json', { inputs: { pw: 'secret-pw' } });
    expect(config(result, 'a')).toMatchObject({ env: { URL: 'https://${input:pw}@${env:HOST}/db' } });
    expect(result.secretsDetected).toEqual([]);
  });

  it('a value for an input the file does not use is refused, naming the inputs it has', () => {
    let error: unknown;
    try {
      importServers(text, '/x/mcp.json', { inputs: { 'gh-tokn': 'x' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).code).toBe('BAD_REQUEST');
    expect((error as HarborError).message).toMatch(/uses no input named "gh-tokn": nothing was imported\. Its inputs: root-dir, mode, gh-token\./);
  });
});

describe("a registry entry that cannot start as written", () => {
  it("names each of another app's placeholders with its field and the fix", () => {
    expect(serverEntryProblems({ command: 'npx', args: ['${input:root-dir}'], env: { A: '${env:HOME}', B: '${workspaceFolder}/x' } })).toEqual([
      'args[0]: ${input:root-dir} is a value another app (VS Code) asks for when the server starts; Harbor does not. Put the value in its place (a secret as ${secret:NAME}), or import the file again with --set root-dir=VALUE',
      'env.A: ${env:HOME} is a variable another app fills in; Harbor does not. Replace it with the real value',
      'env.B: ${workspaceFolder} is a variable another app fills in; Harbor does not. Replace it with the real value',
    ]);
  });

  it("leaves Harbor's own references and shell-style variables alone", () => {
    expect(serverEntryProblems({ command: '${harbor:node}', args: ['-c', 'echo ${HOME}'], env: { T: '${secret:tok}' } })).toEqual([]);
    expect(serverEntryProblems({ url: 'https://e.com/mcp', headers: { Authorization: 'Bearer ${secret:tok}' } })).toEqual([]);
  });

  it('a server with both "command" and "url" is a problem', () => {
    expect(serverEntryProblems({ command: 'npx', url: 'https://e.com/mcp' } as never)).toEqual([expect.stringMatching(/^has both "command" and "url"/)]);
  });
});
