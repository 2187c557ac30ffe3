import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { importServers } from '../../main/host/import/formats';
import { importFixture, serverNamed } from '../fixtures/configs/load';

describe('VS Code importer (mcp.json with servers and inputs)', () => {
  const result = importFixture('vscode/mcp.json');

  it('reads JSON with comments and trailing commas', () => {
    expect(result.format).toBe('vscode');
    expect(result.servers.map((s) => s.name)).toEqual(['perplexity', 'workspace-fs', 'github-remote', 'legacy', 'memory']);
  });

  it('maps type stdio/http/sse to Harbor shapes and keeps ${input:…} references as written', () => {
    expect(serverNamed(result, 'perplexity')).toEqual({
      command: 'npx',
      args: ['-y', 'server-perplexity-ask'],
      env: { PERPLEXITY_API_KEY: '${input:perplexity-key}' },
    });
    expect(serverNamed(result, 'github-remote')).toEqual({
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: 'Bearer ${input:gh-token}' },
    });
    expect(serverNamed(result, 'legacy')).toEqual({ url: 'http://localhost:3001/sse', transport: 'sse' });
    expect(serverNamed(result, 'memory')).toMatchObject({ command: 'npx' });
  });

  it('keeps cwd, drops envFile and dev with a note each', () => {
    expect(serverNamed(result, 'workspace-fs')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'],
      cwd: '${workspaceFolder}/tools',
    });
    const notes = result.warnings.filter((w) => w.server === 'workspace-fs').map((w) => w.message);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^envFile is not supported/);
    expect(notes[1]).toBe('ignored field Harbor does not use: dev');
  });

  it('lists every referenced input with its description, and flags ids missing from "inputs"', () => {
    expect(result.inputsReferenced).toEqual([
      { id: 'perplexity-key', description: 'Perplexity API Key', password: true, defined: true, servers: ['perplexity'] },
      { id: 'gh-token', description: 'GitHub token', password: true, defined: true, servers: ['github-remote'] },
      { id: 'missing-input', defined: false, servers: ['memory'] },
    ]);
  });

  it('fills ${userHome}; reports ${workspaceFolder} of a user-level file as unresolved, with where it is', () => {
    expect(result.unresolvedVariables).toEqual([
      { server: 'workspace-fs', variable: '${workspaceFolder}', where: 'args[2]' },
      { server: 'workspace-fs', variable: '${workspaceFolder}', where: 'cwd' },
    ]);
    expect((serverNamed(result, 'memory') as { env: Record<string, string> }).env.MEMORY_FILE).toBe(`${homedir()}/memory.json`);
  });

  it('does not count input references as literal secrets', () => {
    expect(result.secretsDetected).toEqual([]);
  });

  it('skips an unknown type and an http entry without url', () => {
    expect(result.skipped).toEqual([
      { name: 'wrong-type', problems: ['type: expected "stdio", "http" or "sse", got "websocket"'] },
      { name: 'no-url', problems: ['url: is required for an "http" server'] },
    ]);
  });

  it('reads servers nested under "mcp" in a settings.json', () => {
    const settings = importFixture('vscode-settings/settings.json');
    expect(settings.format).toBe('vscode');
    expect(settings.servers).toEqual([{ name: 'time', config: { command: 'uvx', args: ['mcp-server-time'] } }]);
  });

  it('counts the same input once per server however often it is used', () => {
    const text = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'k', description: 'Key' }],
      servers: {
        a: { type: 'stdio', command: 'x', args: ['${input:k}'], env: { K: '${input:k}' } },
        b: { type: 'http', url: 'https://e.com/mcp', headers: { 'X-K': '${input:k}' } },
      },
    });
    expect(importServers(text, 'mcp.json').inputsReferenced).toEqual([{ id: 'k', description: 'Key', defined: true, servers: ['a', 'b'] }]);
  });

  it('detects a literal key in a VS Code header', () => {
    const text = JSON.stringify({ servers: { a: { type: 'http', url: 'https://e.com/mcp', headers: { 'x-api-key': 'abc123' } } } });
    expect(importServers(text, 'mcp.json').secretsDetected).toEqual([{ server: 'a', where: 'headers', key: 'x-api-key' }]);
  });
});
