/** main/shell/deep-link.ts: harbor://add-server links parsed strictly; links collected from argv and open-url. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DeepLinkInbox, findDeepLink, MAX_CONFIG_JSON_LENGTH, parseDeepLink, registerProtocolClient } from '../../main/shell/deep-link';
import { linkRefusal as refusal } from '../helpers/deep-link';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const uri = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const stdio = { name: 'github', config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_API_URL: 'https://api.github.com' } } };

describe('parseDeepLink', () => {
  it('accepts base64url and URI-encoded JSON, stdio and remote', () => {
    expect(parseDeepLink(`harbor://add-server?config=${b64(stdio)}`)).toEqual({ action: 'add-server', ...stdio });
    expect(parseDeepLink(`harbor://add-server/?config=${uri(stdio)}`)).toEqual({ action: 'add-server', ...stdio });
    const remote = { name: 'Docs search', config: { url: 'https://mcp.example.com/mcp' } };
    expect(parseDeepLink(`harbor://add-server?config=${uri(remote)}`)).toEqual({ action: 'add-server', ...remote });
    expect(parseDeepLink(`HARBOR://ADD-SERVER?config=${b64(remote)}`).name).toBe('Docs search');
  });

  it('refuses other schemes, actions, parameters and URL parts', () => {
    expect(refusal(`https://add-server?config=${b64(stdio)}`)).toMatch(/not a harbor:\/\/ link/);
    expect(refusal(`harbor://remove-server?config=${b64(stdio)}`)).toMatch(/knows only harbor:\/\/add-server/);
    expect(refusal(`harbor://add-server/extra?config=${b64(stdio)}`)).toMatch(/knows only/);
    expect(refusal(`harbor://add-server?config=${b64(stdio)}&trusted=true`)).toMatch(/exactly one parameter/);
    expect(refusal(`harbor://add-server?config=${b64(stdio)}&config=${b64(stdio)}`)).toMatch(/exactly one parameter/);
    expect(refusal('harbor://add-server')).toMatch(/exactly one parameter/);
    expect(refusal(`harbor://user:pw@add-server?config=${b64(stdio)}`)).toMatch(/parts an add-server link never has/);
    expect(refusal(`harbor://add-server?config=${b64(stdio)}#x`)).toMatch(/parts/);
    expect(refusal('not a url')).toMatch(/not a valid URL/);
  });

  it('refuses bad encodings and oversized input', () => {
    expect(refusal('harbor://add-server?config=%%%')).toMatch(/valid URL|base64url/);
    expect(refusal('harbor://add-server?config=not*base64')).toMatch(/base64url-encoded or URI-encoded JSON/);
    expect(refusal(`harbor://add-server?config=${Buffer.from('{"name":').toString('base64url')}`)).toMatch(/not valid JSON/);
    const big = { name: 'big', config: { command: 'x', args: ['a'.repeat(MAX_CONFIG_JSON_LENGTH)] } };
    expect(refusal(`harbor://add-server?config=${uri(big)}`)).toMatch(/longer than/);
    expect(refusal(`harbor://add-server?config=${'A'.repeat(9000)}`)).toMatch(/longer than 8192/);
  });

  it('refuses Harbor fields, unknown fields, secrets, variables and code-injecting environment', () => {
    const link = (config: unknown, name = 'x') => `harbor://add-server?config=${b64({ name, config })}`;
    expect(refusal(link({ command: 'npx', trusted: true }))).toMatch(/trusted|Unrecognized/i);
    expect(refusal(link({ command: 'npx', enabled: true }))).toMatch(/Unrecognized|enabled/i);
    expect(refusal(link({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${secret:GITHUB}' } }))).toMatch(/Unrecognized|headers/i);
    expect(refusal(link({ url: 'https://evil.example/${secret:GITHUB_TOKEN}' }))).toMatch(/\$\{…\} variables/);
    expect(refusal(link({ command: '${harbor:node}', args: ['x.js'] }))).toMatch(/\$\{…\} variables/);
    expect(refusal(link({ command: 'npx', env: { TOKEN: '${secret:GITHUB_TOKEN}' } }))).toMatch(/\$\{…\} variables/);
    for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'PATH', 'path']) {
      expect(refusal(link({ command: 'npx', env: { [name]: '/tmp/x' } }))).toMatch(/changes which code runs/);
    }
    expect(refusal(link({ url: 'file:///etc/passwd' }))).toMatch(/http\(s\) URL/);
    expect(refusal(link({ command: '' }))).toMatch(/config/);
    expect(refusal(link({ command: 'npx' }, '../etc'))).toMatch(/name/);
    expect(refusal(`harbor://add-server?config=${b64({ name: 'x', config: { command: 'npx' }, extra: 1 })}`)).toMatch(/Unrecognized/i);
    expect(refusal(`harbor://add-server?config=${b64([1, 2])}`)).toMatch(/expected object/i);
  });
});

describe('findDeepLink', () => {
  it('finds the link among Chromium flags on Windows/Linux command lines', () => {
    expect(findDeepLink(['C:\\Harbor\\Harbor.exe', '--allow-file-access-from-files', 'harbor://add-server?config=abc'])).toBe('harbor://add-server?config=abc');
    expect(findDeepLink(['/opt/Harbor/harbor', '--no-sandbox'])).toBeUndefined();
  });
});

describe('DeepLinkInbox', () => {
  it('holds links until there is a handler, then delivers them in order and later ones at once', () => {
    const inbox = new DeepLinkInbox();
    const app = new EventEmitter();
    inbox.bindOpenUrl(app as never);
    let prevented = false;
    app.emit('open-url', { preventDefault: () => (prevented = true) }, 'harbor://add-server?config=one');
    inbox.fromArgv(['harbor.exe', 'harbor://add-server?config=two']);
    inbox.fromArgv(['harbor.exe']);
    const got: string[] = [];
    inbox.setHandler((link) => got.push(link));
    inbox.push('harbor://add-server?config=three');
    expect(prevented).toBe(true);
    expect(got).toEqual(['harbor://add-server?config=one', 'harbor://add-server?config=two', 'harbor://add-server?config=three']);
  });

  it('keeps at most a few links before the app is ready (a flood is dropped)', () => {
    const inbox = new DeepLinkInbox();
    for (let i = 0; i < 50; i++) inbox.push(`harbor://add-server?config=${i}`);
    const got: string[] = [];
    inbox.setHandler((link) => got.push(link));
    expect(got).toHaveLength(4);
  });
});

describe('registerProtocolClient', () => {
  it('claims harbor:// only in a packaged app', () => {
    const calls: unknown[][] = [];
    const app = (isPackaged: boolean) => ({ isPackaged, setAsDefaultProtocolClient: (...args: unknown[]) => (calls.push(args), true) });
    expect(registerProtocolClient(app(false) as never, () => undefined)).toBe(false);
    expect(calls).toEqual([]);
    expect(registerProtocolClient(app(true) as never, () => undefined)).toBe(true);
    expect(calls).toEqual([['harbor']]);
  });
});
