import { describe, expect, it } from 'vitest';
import { ServerConfig } from '../../main/host/registry/schema';
import { fixtureText, importFixture, serverNamed } from '../fixtures/configs/load';

describe('Claude Desktop importer (claude_desktop_config.json)', () => {
  const result = importFixture('claude-desktop/claude_desktop_config.json');

  it('recognises the file and imports the valid servers in file order', () => {
    expect(result.format).toBe('claude-desktop');
    expect(result.servers.map((s) => s.name)).toEqual([
      'filesystem',
      'github',
      'weather',
      'linear',
      'legacy-sse',
      'streamable',
      'paused',
    ]);
  });

  it('normalises stdio entries to {command, args, env}', () => {
    expect(serverNamed(result, 'filesystem')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop', '/Users/me/Downloads'],
    });
    expect(serverNamed(result, 'github')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_FAKEfake0000000000000000000000000000', GITHUB_API_URL: 'https://api.github.com' },
    });
  });

  it('converts numbers and booleans to strings and drops null env values, saying so without echoing values', () => {
    expect(serverNamed(result, 'weather')).toEqual({ command: 'uvx', args: ['weather-mcp', '--port', '8080'], env: { DEBUG: 'true' } });
    const notes = result.warnings.filter((w) => w.server === 'weather').map((w) => w.message);
    expect(notes).toEqual([
      'args[2]: number converted to a string',
      'env.DEBUG: boolean converted to a string',
      'env.UNSET_ME: null (unset) dropped',
    ]);
  });

  it('normalises remote entries: {url}, {type:"http"} and {type:"sse"} → transport "sse"', () => {
    expect(serverNamed(result, 'linear')).toEqual({ url: 'https://mcp.linear.app/mcp' });
    expect(serverNamed(result, 'legacy-sse')).toEqual({
      url: 'https://legacy.example.com/sse',
      headers: { Authorization: 'Bearer sk-FAKE-legacy-token-1234', 'X-Team': 'core' },
      transport: 'sse',
    });
    expect(serverNamed(result, 'streamable')).toEqual({ url: 'https://api.example.com/mcp', headers: { 'X-Api-Key': 'FAKE-api-key-5678' } });
  });

  it('carries "disabled": true over as enabled: false and reports fields Harbor ignores', () => {
    expect(serverNamed(result, 'paused')).toEqual({ command: 'node', args: ['server.js'], enabled: false });
    expect(result.warnings).toContainEqual({ server: 'streamable', message: 'ignored field Harbor does not use: alwaysAllow' });
  });

  it('skips malformed entries with one problem line each, naming the field', () => {
    expect(result.skipped).toEqual([
      { name: 'bad-args', problems: ['args[1]: expected string, got an object'] },
      { name: 'bad-command', problems: ['command: expected string, got number'] },
      { name: 'nothing', problems: ['needs either "command" (a local stdio server) or "url" (a remote server)'] },
      { name: 'bad-url', problems: ['url: must be an http(s) URL'] },
      { name: 'not-an-object', problems: ['expected an object with "command" or "url", got string'] },
    ]);
  });

  it('lists literal secrets by server and key, never by value', () => {
    expect(result.secretsDetected).toEqual([
      { server: 'github', where: 'env', key: 'GITHUB_PERSONAL_ACCESS_TOKEN' },
      { server: 'legacy-sse', where: 'headers', key: 'Authorization' },
      { server: 'streamable', where: 'headers', key: 'X-Api-Key' },
    ]);
    const report = JSON.stringify({ ...result, servers: undefined });
    for (const value of ['ghp_FAKEfake', 'sk-FAKE-legacy', 'FAKE-api-key']) expect(report).not.toContain(value);
  });

  it('produces configs the registry schema accepts as they are', () => {
    for (const { config } of result.servers) expect(ServerConfig.parse(config)).toEqual(config);
  });

  it('keeps Windows paths exactly (backslashes, spaces, .cmd shims)', () => {
    const windows = importFixture('claude-desktop-windows/claude_desktop_config.json');
    expect(windows.format).toBe('claude-desktop');
    expect(windows.skipped).toEqual([]);
    expect(serverNamed(windows, 'filesystem')).toEqual({
      command: 'C:\\Program Files\\nodejs\\npx.cmd',
      args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop', 'D:\\Projects\\My Project'],
    });
    expect(serverNamed(windows, 'python-tool')).toMatchObject({
      command: 'C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python312\\python.exe',
      env: { PYTHONPATH: 'C:\\Users\\me\\src' },
    });
    expect(windows.secretsDetected).toEqual([{ server: 'python-tool', where: 'env', key: 'OPENAI_API_KEY' }]);
  });

  it('reads the fixture as strict JSON too (Claude Desktop does not allow comments)', () => {
    expect(() => JSON.parse(fixtureText('claude-desktop/claude_desktop_config.json'))).not.toThrow();
  });
});
