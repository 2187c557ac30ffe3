/**
 * Finding 12 attacked again (#27, the outsider's round): a look-alike need not mix scripts. A host
 * label written wholly in Cyrillic letters that look like Latin ones (`аррӏе.com`), a Latin label
 * with a Latin letter that imitates an ASCII one (`ɡithub.com` with U+0261, `gıthub.com` with a
 * dotless ı), a host given directly in punycode (`xn--…`), and a server name spelt so
 * (`ѕсоре`), all read as a name the person knows, and went through with no warning. What held: an
 * IDN in a URL's path is not the host, and a `%40` cannot make a user name (the URL is refused).
 * The import is a real CLI process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lookalikeProblems } from '../../main/host/registry/lookalike';
import { RemoteServerConfig } from '../../main/host/registry/schema';
import { runCli } from '../helpers/cli';
import { workspace } from '../helpers/workspace';

vi.setConfig({ testTimeout: 120_000 });
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('look-alikes in one script', () => {
  it('a host label wholly in Cyrillic (or Greek) look-alike letters is marked, with what it reads as', () => {
    expect(lookalikeProblems('apple', 'https://аррӏе.com/mcp').join('\n')).toMatch(/аррӏе\.com \(xn--[a-z0-9-]+\.com\).*reads as apple\.com/);
    expect(lookalikeProblems('x', 'https://ѕсоре.example/mcp').join('\n')).toMatch(/reads as scope\.example/);
    expect(lookalikeProblems('x', 'https://οκ.example/mcp').join('\n')).toMatch(/reads as ok\.example/);
  });

  it('a Latin letter that imitates an ASCII one (ɡ U+0261, dotless ı) is marked', () => {
    expect(lookalikeProblems('x', 'https://ɡithub.com/mcp').join('\n')).toMatch(/reads as github\.com/);
    expect(lookalikeProblems('x', 'https://gıthub.com/mcp').join('\n')).toMatch(/reads as github\.com/);
  });

  it('a host given directly in punycode is judged by what it shows', () => {
    const ascii = new URL('https://аррӏе.com/').hostname;
    expect(ascii).toMatch(/^xn--/);
    expect(lookalikeProblems('x', `https://${ascii}/mcp`).join('\n')).toMatch(/reads as apple\.com/);
  });

  it('a server name spelt in look-alike letters is marked', () => {
    expect(lookalikeProblems('ѕсоре', undefined).join('\n')).toMatch(/the name "ѕсоре".*reads as "scope"/);
  });

  it('what held: plain names and hosts, real non-Latin ones, an IDN in the path, a %40 user name', () => {
    for (const [name, url] of [
      ['github', 'https://github.com/mcp'],
      ['notes', 'https://api.example.com/gіthub/mcp'],
      ['почта', 'https://почта.рф/mcp'],
      ['münchen', 'https://münchen.de/mcp'],
      ['日本語', 'https://例え.jp/mcp'],
    ] as const) {
      expect(lookalikeProblems(name, url), `${name} ${url}`).toEqual([]);
    }
    expect(RemoteServerConfig.safeParse({ url: 'https://github.com%40127.0.0.1/mcp' }).success).toBe(false);
  });
});

describe('on import', () => {
  it('a whole-script look-alike host or name is refused without --allow-lookalike (exit 4, nothing written)', async () => {
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-look1-');
    roots.push(ws.root);
    const dir = mkdtempSync(join(tmpdir(), 'harbor-sec-look1-import-'));
    roots.push(dir);
    const file = join(dir, 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { apple: { url: 'https://аррӏе.com/mcp' }, 'ѕсоре': { command: 'node', args: ['s.mjs'] } } }));
    const before = readFileSync(ws.config, 'utf8');
    const run = await runCli([...ws.flags, 'import', file]);
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(4);
    expect(`${run.stdout}${run.stderr}`).toMatch(/reads as apple\.com/);
    expect(`${run.stdout}${run.stderr}`).toMatch(/reads as "scope"/);
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
  });
});
