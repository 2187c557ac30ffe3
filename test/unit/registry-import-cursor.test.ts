import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { importServers } from '../../main/host/import/formats';
import { fixtureText, importFixture, serverNamed } from '../fixtures/configs/load';

describe('Cursor importer (~/.cursor/mcp.json)', () => {
  const result = importFixture('cursor/.cursor/mcp.json');

  it('is recognised by its .cursor folder', () => {
    expect(result.format).toBe('cursor');
    expect(result.servers.map((s) => s.name)).toEqual(['brave-search', 'postgres', 'notes', 'remote-docs']);
    expect(result.skipped).toEqual([]);
  });

  it('is recognised by ${env:…} even under another file name', () => {
    expect(importServers(fixtureText('cursor/.cursor/mcp.json'), '/tmp/exported.json').format).toBe('cursor');
  });

  it('keeps ${env:NAME} as written and reports each one; fills ${userHome}', () => {
    expect(serverNamed(result, 'brave-search')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-brave-search'],
      env: { BRAVE_API_KEY: '${env:BRAVE_API_KEY}' },
    });
    expect(serverNamed(result, 'remote-docs')).toEqual({
      url: 'https://docs.example.com/mcp',
      headers: { Authorization: 'Bearer ${env:DOCS_TOKEN}' },
    });
    expect(result.unresolvedVariables).toEqual([
      { server: 'brave-search', variable: '${env:BRAVE_API_KEY}', where: 'env.BRAVE_API_KEY' },
      { server: 'remote-docs', variable: '${env:DOCS_TOKEN}', where: 'headers.Authorization' },
    ]);
    expect(result.inputsReferenced).toEqual([]);
    expect(serverNamed(result, 'notes')).toMatchObject({ args: [`${homedir()}/mcp/notes/index.js`] });
  });

  it('flags literal secrets but not ${env:…} references', () => {
    expect(result.secretsDetected).toEqual([{ server: 'postgres', where: 'env', key: 'PGPASSWORD' }]);
  });
});
