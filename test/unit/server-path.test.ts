import { describe, expect, it } from 'vitest';
import { harborToolFolder, serverPath, serverWorkingFolder, withoutHarborToolFolders } from '../../main/host/servers/stdio/server-path';

// What `npx harbor` inside a checkout at /home/me/harbor hands Harbor (npm 11 on Linux).
const NPX_PATH = [
  '/home/me/harbor/node_modules/.bin',
  '/home/me/node_modules/.bin',
  '/home/node_modules/.bin',
  '/node_modules/.bin',
  '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
  '/home/me/.npm/_npx/5f3a/node_modules/.bin',
  '/home/me/.local/bin',
  '/usr/local/bin',
  '/usr/bin',
].join(':');
const BUNDLED_NODE = '/home/me/harbor/node_modules/node/bin/node';

describe("a stdio server's PATH", () => {
  it("drops the folders npm and npx put first for Harbor, and keeps the person's", () => {
    expect(serverPath({ own: NPX_PATH, login: undefined, execPath: BUNDLED_NODE, platform: 'linux' })).toBe('/home/me/.local/bin:/usr/local/bin:/usr/bin');
  });

  it("puts the login shell's PATH first, then the rest of Harbor's own", () => {
    expect(serverPath({ own: NPX_PATH, login: '/opt/homebrew/bin:/usr/bin', execPath: BUNDLED_NODE, platform: 'darwin' })).toBe(
      '/opt/homebrew/bin:/usr/bin:/home/me/.local/bin:/usr/local/bin',
    );
  });

  it("drops a bundled Node's own folder, never the person's Node's", () => {
    expect(serverPath({ own: '/home/me/harbor/node_modules/node/bin:/usr/bin', login: undefined, execPath: BUNDLED_NODE, platform: 'linux' })).toBe('/usr/bin');
    expect(serverPath({ own: '/usr/bin:/bin', login: undefined, execPath: '/usr/bin/node', platform: 'linux' })).toBe('/usr/bin:/bin');
  });

  it('knows Windows spellings', () => {
    const harbors = harborToolFolder('win32', 'C:\\Users\\me\\harbor\\node_modules\\node\\bin\\node.exe');
    expect(harbors('C:\\Users\\me\\harbor\\node_modules\\.bin')).toBe(true);
    expect(harbors('"C:\\Users\\me\\AppData\\Local\\npm-cache\\_npx\\1a2b\\node_modules\\.bin\\"')).toBe(true);
    expect(harbors('C:\\Users\\me\\harbor\\NODE_MODULES\\node\\bin')).toBe(true);
    expect(harbors('C:\\Program Files\\nodejs')).toBe(false);
    expect(serverPath({ own: 'C:\\Users\\me\\harbor\\node_modules\\.bin;C:\\Program Files\\nodejs;C:\\Windows', login: undefined, execPath: 'C:\\Program Files\\nodejs\\node.exe', platform: 'win32' })).toBe(
      'C:\\Program Files\\nodejs;C:\\Windows',
    );
  });

  it('starts the login shell without them', () => {
    const env = withoutHarborToolFolders({ PATH: NPX_PATH, HOME: '/home/me' }, 'linux', BUNDLED_NODE);
    expect(env).toEqual({ PATH: '/home/me/.local/bin:/usr/local/bin:/usr/bin', HOME: '/home/me' });
  });
});

describe("a stdio server's working folder", () => {
  it('is the home folder unless "cwd" says otherwise; ~ and relative paths are taken from home', () => {
    expect(serverWorkingFolder(undefined, '/home/me', 'linux')).toBe('/home/me');
    expect(serverWorkingFolder('', '/home/me', 'linux')).toBe('/home/me');
    expect(serverWorkingFolder('~', '/home/me', 'linux')).toBe('/home/me');
    expect(serverWorkingFolder('~/src/app', '/home/me', 'linux')).toBe('/home/me/src/app');
    expect(serverWorkingFolder('src/app', '/home/me', 'linux')).toBe('/home/me/src/app');
    expect(serverWorkingFolder('/srv/data', '/home/me', 'linux')).toBe('/srv/data');
    expect(serverWorkingFolder('~\\src', 'C:\\Users\\me', 'win32')).toBe('C:\\Users\\me\\src');
    expect(serverWorkingFolder('D:\\data', 'C:\\Users\\me', 'win32')).toBe('D:\\data');
  });
});
