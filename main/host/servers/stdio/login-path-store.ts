/**
 * The login shell's PATH, remembered in the data folder (login-path.json) so that a command does
 * not run the person's login shell — 0.1 s with a plain .bashrc, seconds with nvm, conda or a heavy
 * .zshrc — at every start. An entry holds for the shell it came from, the PATH that shell started
 * with, and the modification times of the rc files a login shell reads: edit ~/.zshrc (or install
 * something that edits it) and the next launch asks the shell again.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs-atomic';

/** What a login shell of bash, zsh, sh/dash or fish reads at start (and the folders whose files it sources). */
const HOME_RC = ['.profile', '.bash_profile', '.bash_login', '.bashrc', '.zshenv', '.zprofile', '.zshrc', '.zlogin', '.config/fish/config.fish', '.config/fish/conf.d'];
const SYSTEM_RC = ['/etc/profile', '/etc/profile.d', '/etc/bash.bashrc', '/etc/bashrc', '/etc/environment', '/etc/paths', '/etc/paths.d', '/etc/zshenv', '/etc/zprofile', '/etc/zshrc', '/etc/zlogin', '/etc/zsh/zshenv', '/etc/zsh/zprofile', '/etc/zsh/zshrc', '/etc/zsh/zlogin', '/etc/fish/config.fish'];

interface Entry {
  readonly key: string;
  readonly path: string;
  readonly at: number;
}

/** What an entry is valid for: the shell, its starting PATH, each rc file's modification time (-1: none). */
export function loginPathKey(shell: string, startPath: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const { statSync } = process.getBuiltinModule('node:fs');
  const home = env.HOME || homedir();
  const zdot = env.ZDOTDIR;
  const files = [...HOME_RC.map((f) => join(home, f)), ...(zdot ? ['.zshenv', '.zprofile', '.zshrc', '.zlogin'].map((f) => join(zdot, f)) : []), ...SYSTEM_RC];
  const times = files.map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1);
  return JSON.stringify([shell, startPath ?? '', ...times]);
}

export class LoginPathStore {
  constructor(private readonly file: string) {}

  /** The remembered PATH when its key still holds; undefined when none, or it is stale or unreadable. */
  read(key: string): string | undefined {
    const { readFileSync } = process.getBuiltinModule('node:fs');
    let entry: Partial<Entry>;
    try {
      entry = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Entry>;
    } catch {
      // None yet, or damaged: the shell is asked, and its answer replaces the file.
      return undefined;
    }
    return entry.key === key && typeof entry.path === 'string' && entry.path !== '' ? entry.path : undefined;
  }

  write(key: string, path: string): Promise<void> {
    const entry: Entry = { key, path, at: Date.now() };
    return writeFileAtomic(this.file, `${JSON.stringify(entry)}\n`);
  }
}
