import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { defaultImportSources, detectFormat, importServers } from '../../main/host/import/formats';
import { parseJsonc } from '../../main/host/registry/jsonc';
import { isLiteralValue, looksSecretKey } from '../../main/host/import/formats/scan';
import { fixtureText, importFixture } from '../fixtures/configs/load';

function importError(relative: string): HarborError {
  try {
    importFixture(relative);
  } catch (error) {
    expect(error).toBeInstanceOf(HarborError);
    return error as HarborError;
  }
  throw new Error(`${relative} was imported but should have been refused`);
}

describe('detectFormat', () => {
  const mcpServers = { mcpServers: { a: { command: 'x' } } };

  it('tells the three apps apart by shape and location', () => {
    expect(detectFormat(mcpServers, '/home/me/.config/Claude/claude_desktop_config.json')).toBe('claude-desktop');
    expect(detectFormat(mcpServers, '/home/me/.cursor/mcp.json')).toBe('cursor');
    expect(detectFormat(mcpServers, 'C:\\Users\\me\\.cursor\\mcp.json')).toBe('cursor');
    expect(detectFormat(mcpServers, 'C:\\Users\\me\\AppData\\Roaming\\Claude\\CLAUDE_DESKTOP_CONFIG.json')).toBe('claude-desktop');
    expect(detectFormat({ mcpServers: { a: { command: 'x', env: { K: '${env:K}' } } } })).toBe('cursor');
    expect(detectFormat(mcpServers, '/tmp/anything.json')).toBe('claude-desktop'); // the common shape
    expect(detectFormat({ servers: {}, inputs: [] })).toBe('vscode');
    expect(detectFormat({ 'editor.fontSize': 12, mcp: { servers: {} } })).toBe('vscode');
  });

  it('returns undefined for files none of them would read', () => {
    expect(detectFormat([])).toBeUndefined();
    expect(detectFormat('x')).toBeUndefined();
    expect(detectFormat({ servers_list: [] })).toBeUndefined();
  });
});

describe('importServers on bad files', () => {
  it('refuses text that is not JSON, naming the file and the place', () => {
    const error = importError('broken/not-json.json');
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('broken/not-json.json is not valid JSON');
    expect(error.message).toContain('Nothing was imported');
  });

  it('explains single backslashes in a Windows path', () => {
    const error = importError('broken/single-backslash.json');
    expect(error.message).toMatch(/line 3/);
    expect(error.message).toContain('backslash must be doubled');
  });

  it('refuses a file of an unknown shape and says what it expected', () => {
    expect(importError('broken/unknown-shape.json').message).toContain('expected an object with "mcpServers" or "servers"');
  });

  it('refuses "mcpServers" that is not an object', () => {
    expect(importError('broken/servers-array.json').message).toContain('"mcpServers" must be an object of name → server, got an array');
  });

  it('skips every broken entry of a file and imports nothing from it', () => {
    const result = importFixture('broken/all-invalid.json');
    expect(result.servers).toEqual([]);
    expect(result.skipped).toEqual([
      { name: 'one', problems: ['command: must not be empty'] },
      { name: 'two', problems: ['needs either "command" (a local stdio server) or "url" (a remote server)'] },
    ]);
  });

  it('accepts a file with no servers', () => {
    expect(importFixture('empty/claude_desktop_config.json')).toMatchObject({ servers: [], skipped: [] });
  });

  it('skips entries with both command and url, an empty name, or args as a string', () => {
    const result = importServers(
      JSON.stringify({
        mcpServers: {
          both: { command: 'x', url: 'https://e.com' },
          '': { command: 'x' },
          stringy: { command: 'x', args: '--flag value' },
          headersy: { url: 'https://e.com', headers: ['Authorization: x'] },
        },
      }),
      'f.json',
    );
    expect(result.servers).toEqual([]);
    expect(result.skipped.map((s) => [s.name, s.problems])).toEqual([
      ['both', ['has both "command" and "url": keep "command" for a local server or "url" for a remote one']],
      ['', ['a server name must not be empty']],
      ['stringy', ['args: expected an array of strings, got string']],
      ['headersy', ['headers: expected an object of name → string, got an array']],
    ]);
  });

  it('never imports "trusted": trust is decided in Harbor', () => {
    const result = importServers(JSON.stringify({ mcpServers: { a: { command: 'x', trusted: true, timeoutMs: 9000 } } }), 'f.json');
    expect(result.servers).toEqual([{ name: 'a', config: { command: 'x', timeoutMs: 9000 } }]);
    expect(result.warnings[0]?.message).toMatch(/"trusted" was not imported/);
  });
});

describe('secret detection', () => {
  it('matches the key patterns case-insensitively', () => {
    for (const key of ['GITHUB_TOKEN', 'api_key', 'X-Api-Key', 'CLIENT_SECRET', 'DB_PASSWORD', 'authorization', 'Proxy-Authorization', 'Cookie']) {
      expect(looksSecretKey(key), key).toBe(true);
    }
    for (const key of ['PATH', 'DEBUG', 'X-Team', 'GITHUB_API_URL', 'Accept']) expect(looksSecretKey(key), key).toBe(false);
  });

  it('tells literal values from references', () => {
    expect(isLiteralValue('ghp_abc')).toBe(true);
    expect(isLiteralValue('Bearer abc')).toBe(true);
    expect(isLiteralValue('${input:token}')).toBe(false);
    expect(isLiteralValue('Bearer ${env:TOKEN}')).toBe(false);
    expect(isLiteralValue('${secret:github}')).toBe(false);
    expect(isLiteralValue('')).toBe(false);
    expect(isLiteralValue('prefix-${env:X}')).toBe(true);
  });

  it('does not report ${secret:…} references (Harbor resolves them) as anything', () => {
    const result = importServers(JSON.stringify({ mcpServers: { a: { command: 'x', env: { TOKEN: '${secret:a-token}' } } } }), 'f.json');
    expect(result.secretsDetected).toEqual([]);
    expect(result.unresolvedVariables).toEqual([]);
  });
});

describe('reading JSON with comments (jsonc-parser)', () => {
  it('reads comments and trailing commas, keeps strings', () => {
    const text = '{\n  // a comment\n  "a": "http://x//y", /* b */ "c": [1, 2,],\n}';
    expect(parseJsonc(text)).toEqual({ ok: true, value: { a: 'http://x//y', c: [1, 2] } });
  });

  it('leaves escaped quotes and comment-like text inside strings alone', () => {
    const text = '{"a": "say \\"/* hi */\\" // ok", "b": ",}"}';
    expect(parseJsonc(text)).toEqual({ ok: true, value: { a: 'say "/* hi */" // ok', b: ',}' } });
  });

  it('is what lets the VS Code fixture parse', () => {
    expect(() => JSON.parse(fixtureText('vscode/mcp.json'))).toThrow();
    expect(parseJsonc(fixtureText('vscode/mcp.json')).ok).toBe(true);
  });
});

describe('defaultImportSources', () => {
  it('macOS', () => {
    expect(defaultImportSources('darwin', { HOME: '/Users/me' })).toEqual([
      { format: 'claude-desktop', label: 'Claude Desktop', path: '/Users/me/Library/Application Support/Claude/claude_desktop_config.json' },
      { format: 'vscode', label: 'VS Code', path: '/Users/me/Library/Application Support/Code/User/mcp.json' },
      { format: 'cursor', label: 'Cursor', path: '/Users/me/.cursor/mcp.json' },
    ]);
  });

  it('Windows', () => {
    expect(defaultImportSources('win32', { USERPROFILE: 'C:\\Users\\me', APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }).map((s) => s.path)).toEqual([
      'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json',
      'C:\\Users\\me\\.cursor\\mcp.json',
    ]);
    // No APPDATA in the environment: the roaming folder under the profile.
    expect(defaultImportSources('win32', { USERPROFILE: 'C:\\Users\\me' })[0]!.path).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  it('Linux, honouring XDG_CONFIG_HOME', () => {
    expect(defaultImportSources('linux', { HOME: '/home/me' }).map((s) => s.path)).toEqual([
      '/home/me/.config/Claude/claude_desktop_config.json',
      '/home/me/.config/Code/User/mcp.json',
      '/home/me/.cursor/mcp.json',
    ]);
    expect(defaultImportSources('linux', { HOME: '/home/me', XDG_CONFIG_HOME: '/xdg' })[1]!.path).toBe('/xdg/Code/User/mcp.json');
  });
});
