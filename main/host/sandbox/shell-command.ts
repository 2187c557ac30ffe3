/**
 * The command the sandbox's shell runs: the server's own command line, quoted word by word so
 * nothing in it is read as shell syntax, after the variables the sandbox sets for it. `exec`
 * makes the server take the shell's place, so signals and its exit status are its own.
 */
export function shellCommand(command: string, args: readonly string[], env: Readonly<Record<string, string>>): string {
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`);
  const exported = assignments.length > 0 ? `export ${assignments.join(' ')}; ` : '';
  return `${exported}exec ${[command, ...args].map(quote).join(' ')}`;
}

/** POSIX single quotes: everything literal, a `'` closed, escaped and reopened. */
export function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
