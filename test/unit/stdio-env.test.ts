import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { buildServerEnv, LoginShellPath, resolveCommand } from '../../main/host/servers/stdio/environment';
import { MARKER_ENV } from '../../main/host/servers/stdio/process';
import { spawnFailure } from '../../main/host/servers/stdio/spawn-error';
import { escapeCmdCommand, quoteCmdArgument, quoteForCrt } from '../../main/host/servers/stdio/windows-command';
import { uniqueMarker, waitForNoMarkedProcesses, killMarkedProcesses } from '../fixtures/proc';

describe('buildServerEnv (POSIX)', () => {
  const base = {
    HOME: '/home/ada',
    PATH: '/usr/bin:/bin',
    SHELL: '/bin/zsh',
    USER: 'ada',
    LANG: 'fr_FR.UTF-8',
    TMPDIR: '/tmp/ada',
    OPENAI_API_KEY: 'sk-secret',
    AWS_SECRET_ACCESS_KEY: 'also-secret',
    TERM: '() { :; }; echo pwned',
  };

  it('passes only the allowlist, never the host secrets, never exported shell functions', () => {
    const env = buildServerEnv({ base, serverEnv: undefined, platform: 'linux' });
    expect(env).toEqual({
      HOME: '/home/ada',
      PATH: '/usr/bin:/bin',
      SHELL: '/bin/zsh',
      USER: 'ada',
      LANG: 'fr_FR.UTF-8',
      TMPDIR: '/tmp/ada',
    });
  });

  it('uses the login-shell PATH when given, and the server env wins over everything', () => {
    expect(buildServerEnv({ base, serverEnv: undefined, loginPath: '/opt/homebrew/bin:/usr/bin', platform: 'darwin' }).PATH).toBe(
      '/opt/homebrew/bin:/usr/bin',
    );
    const env = buildServerEnv({
      base,
      serverEnv: { PATH: '/custom', GITHUB_TOKEN: 'ghp_configured', HOME: '/srv' },
      loginPath: '/opt/homebrew/bin',
      platform: 'linux',
    });
    expect(env.PATH).toBe('/custom');
    expect(env.HOME).toBe('/srv');
    expect(env.GITHUB_TOKEN).toBe('ghp_configured');
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it('an empty loginPath (resolution failed) keeps the inherited PATH', () => {
    expect(buildServerEnv({ base, serverEnv: {}, loginPath: '', platform: 'linux' }).PATH).toBe('/usr/bin:/bin');
  });
});

describe('buildServerEnv (Windows)', () => {
  const base = {
    Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
    SystemRoot: 'C:\\Windows',
    APPDATA: 'C:\\Users\\ada\\AppData\\Roaming',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    USERPROFILE: 'C:\\Users\\ada',
    HOME: 'C:\\Users\\ada', // not on the Windows list
    OPENAI_API_KEY: 'sk-secret',
  };

  it('uses the SDK list, matching names case-insensitively', () => {
    const env = buildServerEnv({ base, serverEnv: undefined, platform: 'win32' });
    expect(env).toEqual({
      PATH: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
      SYSTEMROOT: 'C:\\Windows',
      APPDATA: 'C:\\Users\\ada\\AppData\\Roaming',
      COMSPEC: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      USERPROFILE: 'C:\\Users\\ada',
    });
  });

  it('a configured "Path" replaces PATH instead of sitting beside it', () => {
    const env = buildServerEnv({ base, serverEnv: { Path: 'D:\\tools' }, platform: 'win32' });
    expect(Object.keys(env).filter((k) => k.toUpperCase() === 'PATH')).toEqual(['Path']);
    expect(env.Path).toBe('D:\\tools');
  });

  it('ignores loginPath semantics only if not given (Windows never resolves one)', () => {
    expect(buildServerEnv({ base, serverEnv: undefined, loginPath: undefined, platform: 'win32' }).PATH).toBe(base.Path);
  });
});

// ---------------------------------------------------------------------------------------------
// Windows command lines, checked against a model of how cmd.exe and the C runtime parse them.

/**
 * cmd.exe phase 2, reduced to what matters for injection: outside quotes `^` escapes the next
 * character and & | < > are operators; a quote toggles quoted mode. Returns the first token, the
 * rest of the line (what a batch file sees as %*) and whether an unescaped operator was seen.
 */
function cmdParse(line: string): { command: string; rest: string; operator: boolean } {
  let out = '';
  let inQuotes = false;
  let operator = false;
  let commandEnd = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (!inQuotes && c === '^') {
      i += 1;
      if (i < line.length) out += line[i];
      continue;
    }
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && '&|<>'.includes(c)) operator = true;
    else if (!inQuotes && c === ' ' && commandEnd < 0) {
      commandEnd = out.length;
    }
    out += c;
  }
  if (commandEnd < 0) return { command: out, rest: '', operator };
  return { command: out.slice(0, commandEnd), rest: out.slice(commandEnd + 1), operator };
}

/** How the Microsoft C runtime (node.exe) splits its command line into argv. */
function parseCrt(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (i >= s.length) return out;
    let arg = '';
    let inQuotes = false;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') {
        let n = 0;
        while (s[i] === '\\') {
          n++;
          i++;
        }
        if (s[i] === '"') {
          arg += '\\'.repeat(n >> 1);
          if (n & 1) {
            arg += '"';
            i++;
          }
        } else {
          arg += '\\'.repeat(n);
        }
        continue;
      }
      if (c === '"') {
        if (inQuotes && s[i + 1] === '"') {
          arg += '"';
          i += 2;
          continue;
        }
        inQuotes = !inQuotes;
        i++;
        continue;
      }
      if (!inQuotes && (c === ' ' || c === '\t')) break;
      arg += c;
      i++;
    }
    out.push(arg);
  }
}

/** Runs a resolved `cmd.exe /d /s /c "…"` through both cmd parses and the CRT; returns what node.exe gets. */
function simulateShim(resolved: { args: string[] }): { command: string; argv: string[] } {
  const [d, s, c, line] = resolved.args;
  expect([d, s, c]).toEqual(['/d', '/s', '/c']);
  expect(line!.startsWith('"') && line!.endsWith('"')).toBe(true);
  const inner = line!.slice(1, -1); // what /s leaves
  // Phase 1 must not expand variables: every % is caret-escaped on the /c line.
  expect(/(^|[^^])%/.test(inner)).toBe(false);
  const first = cmdParse(inner);
  expect(first.operator).toBe(false);
  // The shim runs `"node.exe" "cli.js" %*`: %* is parsed again.
  const second = cmdParse(`"node.exe" ${first.rest}`);
  expect(second.operator).toBe(false);
  return { command: first.command, argv: parseCrt(second.rest) };
}

const NASTY_ARGS = [
  '',
  'plain',
  'two words',
  'a"b',
  'a\\"b',
  'trailing\\',
  'C:\\dir with space\\',
  '"quoted"',
  'a&calc',
  'a"&calc',
  '"&calc&"',
  '\\"&calc',
  'a\\\\"b"&c',
  'x|y',
  '<in>out',
  '100%',
  '%PATH%',
  '!VAR!',
  'a^b',
  '^',
  '(paren)',
  'semi;colon',
  'comma,',
  'star*?',
  '\\\\server\\share',
  'héllo 👋 世界',
  '`tick`',
  'tab\there',
  '{"json":"value with \\"quotes\\""}',
];

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('Windows command resolution and quoting (pure; CVE-2024-27980)', () => {
  const env = {
    Path: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";C:\\Users\\ada\\.local\\bin',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  };
  const files = new Set([
    'C:\\Program Files\\nodejs\\npx.cmd',
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\Users\\ada\\.local\\bin\\uvx.exe',
    'C:\\tools\\run server.bat',
  ]);
  const isFile = (path: string): boolean => files.has(path);

  it('leaves commands alone on macOS/Linux', () => {
    expect(resolveCommand('npx', ['-y', 'pkg'], env, 'linux', { isFile })).toEqual({ file: 'npx', args: ['-y', 'pkg'] });
    expect(resolveCommand('npx', ['-y'], env, 'darwin', { isFile })).toEqual({ file: 'npx', args: ['-y'] });
  });

  it('runs an .exe found on PATH directly, arguments untouched', () => {
    expect(resolveCommand('uvx', ['mcp-server-time', 'a b'], env, 'win32', { isFile })).toEqual({
      file: 'C:\\Users\\ada\\.local\\bin\\uvx.exe',
      args: ['mcp-server-time', 'a b'],
    });
    expect(resolveCommand('node', ['x.js'], env, 'win32', { isFile }).file).toBe('C:\\Program Files\\nodejs\\node.exe');
  });

  it('runs npx (npx.cmd) through cmd.exe /d /s /c with verbatim, escaped arguments', () => {
    const resolved = resolveCommand('npx', ['-y', '@modelcontextprotocol/server-everything', 'a b'], env, 'win32', { isFile });
    expect(resolved.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(resolved.windowsVerbatimArguments).toBe(true);
    expect(resolved.args).toEqual([
      '/d',
      '/s',
      '/c',
      '"C:\\Program^ Files\\nodejs\\npx.cmd ^^^"-y^^^" ^^^"@modelcontextprotocol/server-everything^^^" ^^^"a^^^ b^^^""',
    ]);
    const seen = simulateShim(resolved);
    expect(seen.command).toBe('C:\\Program Files\\nodejs\\npx.cmd');
    expect(seen.argv).toEqual(['-y', '@modelcontextprotocol/server-everything', 'a b']);
  });

  it('wraps an explicit .bat path (with spaces) the same way', () => {
    const resolved = resolveCommand('C:\\tools\\run server.bat', ['--port', '8080'], env, 'win32', { isFile });
    expect(resolved.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(simulateShim(resolved)).toEqual({ command: 'C:\\tools\\run server.bat', argv: ['--port', '8080'] });
  });

  it('falls back to cmd.exe when COMSPEC is missing', () => {
    const resolved = resolveCommand('npx', [], { Path: env.Path }, 'win32', { isFile });
    expect(resolved.file).toBe('cmd.exe');
  });

  it('leaves an unknown command as is, so spawn reports ENOENT with a hint', () => {
    expect(resolveCommand('nope', ['x'], env, 'win32', { isFile })).toEqual({ file: 'nope', args: ['x'] });
  });

  it('every nasty argument reaches node.exe unchanged and never becomes a cmd.exe operator', () => {
    const resolved = resolveCommand('npx', NASTY_ARGS, env, 'win32', { isFile });
    expect(simulateShim(resolved).argv).toEqual(NASTY_ARGS);
    for (const arg of NASTY_ARGS) {
      expect(simulateShim(resolveCommand('npx', [arg], env, 'win32', { isFile })).argv).toEqual([arg]);
    }
  });

  it('random strings of dangerous characters round-trip (fuzz, fixed seed)', () => {
    const alphabet = ['a', ' ', '"', '\\', '&', '|', '<', '>', '^', '%', '!', '(', ')', ',', ';', '*', '?', '=', 'é', '\t'];
    const random = seededRandom(27980);
    for (let n = 0; n < 400; n++) {
      const args = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join(''),
      );
      expect(simulateShim(resolveCommand('npx', args, env, 'win32', { isFile })).argv).toEqual(args);
    }
  });

  it('refuses line breaks in arguments for a batch file (cmd.exe would cut the line there)', () => {
    expect(() => resolveCommand('npx', ['a\nb'], env, 'win32', { isFile })).toThrow(HarborError);
    // …but an .exe gets them as they are.
    expect(resolveCommand('uvx', ['a\nb'], env, 'win32', { isFile }).args).toEqual(['a\nb']);
  });

  it('quoting helpers, case by case', () => {
    expect(quoteForCrt('plain')).toBe('plain');
    expect(quoteForCrt('a"b')).toBe('a\\"b');
    expect(quoteForCrt('a\\"b')).toBe('a\\\\\\"b');
    expect(quoteForCrt('dir\\')).toBe('dir\\\\');
    expect(quoteForCrt('a\\b')).toBe('a\\b');
    expect(quoteCmdArgument('a&b', false)).toBe('^"a^&b^"');
    expect(quoteCmdArgument('a&b', true)).toBe('^^^"a^^^&b^^^"');
    expect(quoteCmdArgument('', false)).toBe('^"^"');
    expect(escapeCmdCommand('C:\\Program Files (x86)\\x.cmd')).toBe('C:\\Program^ Files^ ^(x86^)\\x.cmd');
  });
});

// ---------------------------------------------------------------------------------------------

describe('spawnFailure messages', () => {
  const env = { PATH: '/usr/bin:/bin' };
  const enoent = Object.assign(new Error('spawn npx ENOENT'), { code: 'ENOENT', syscall: 'spawn npx' });

  it('names the missing command, the PATH searched and the fix', () => {
    const error = spawnFailure(enoent, { command: 'npx', env, platform: 'linux' });
    expect(error.code).toBe('SPAWN_FAILED');
    expect(error.message).toBe(
      'Harbor could not find "npx" on PATH (/usr/bin:/bin). Install Node.js, or set "command" to the full path (e.g. /usr/local/bin/npx).',
    );
    expect(error.detail).toBe('spawn npx ENOENT');
  });

  it('suggests uv for uvx, a Windows path on Windows', () => {
    const error = spawnFailure(enoent, { command: 'uvx', env: { Path: 'C:\\x' }, platform: 'win32' });
    expect(error.message).toContain('Install uv');
    expect(error.message).toContain('C:\\path\\to\\uvx.exe');
    expect(error.message).toContain('(C:\\x)');
  });

  it('says when the working directory is what is missing', () => {
    const error = spawnFailure(enoent, { command: 'npx', cwd: '/definitely/not/here', env, platform: 'linux' });
    expect(error.message).toContain('working directory "/definitely/not/here" does not exist');
  });

  it('permission denied', () => {
    const error = spawnFailure(Object.assign(new Error('spawn ./x EACCES'), { code: 'EACCES' }), { command: './x', env, platform: 'linux' });
    expect(error.message).toContain('permission denied');
  });
});

// ---------------------------------------------------------------------------------------------
// The login shell, for real (bash with a throwaway HOME).

describe('LoginShellPath', () => {
  const dirs: string[] = [];
  const markers: string[] = [];
  afterEach(() => {
    for (const marker of markers.splice(0)) killMarkedProcesses(marker);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function home(profile: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-login-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.bash_profile'), profile);
    return dir;
  }

  it.skipIf(!existsSync('/bin/bash'))('finds the PATH the login shell builds, ignoring banner noise, and runs the shell once', async () => {
    const dir = home(
      [
        'echo "Welcome! motd noise on stdout"',
        'echo "noise on stderr" >&2',
        'export PATH="/opt/harbor-login-test/bin:$PATH"',
        'echo run >> "$HOME/runs"',
      ].join('\n'),
    );
    const resolver = new LoginShellPath({ platform: 'linux', shell: '/bin/bash', env: { HOME: dir, PATH: '/usr/bin:/bin' } });
    const first = await resolver.resolve();
    expect(first).toBeDefined();
    expect(first!.split(':')[0]).toBe('/opt/harbor-login-test/bin');
    expect(first).not.toContain('Welcome');
    expect(first).not.toContain('\n');
    expect(await resolver.resolve()).toBe(first);
    expect(readFileSync(join(dir, 'runs'), 'utf8')).toBe('run\n');
  });

  it.skipIf(!existsSync('/bin/bash'))('gives up after the timeout and kills what the rc file started', async () => {
    const marker = uniqueMarker('login-timeout');
    markers.push(marker);
    const dir = home('sleep 30\n');
    const resolver = new LoginShellPath({
      platform: 'linux',
      shell: '/bin/bash',
      timeoutMs: 500,
      env: { HOME: dir, PATH: '/usr/bin:/bin', [MARKER_ENV]: marker },
    });
    const started = Date.now();
    expect(await resolver.resolve()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(resolver.failure).toContain('did not answer within 500 ms');
    expect(await waitForNoMarkedProcesses(marker, 3000)).toEqual([]);
  });

  it('a missing shell gives undefined with a reason', async () => {
    const resolver = new LoginShellPath({ platform: 'linux', shell: '/no/such/shell', env: {} });
    expect(await resolver.resolve()).toBeUndefined();
    expect(resolver.failure).toContain('could not run /no/such/shell');
  });

  it('on Windows it does not run anything and answers undefined', async () => {
    const resolver = new LoginShellPath({ platform: 'win32', shell: '/no/such/shell' });
    expect(await resolver.resolve()).toBeUndefined();
    expect(resolver.failure).toBeUndefined();
  });
});
