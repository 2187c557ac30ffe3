/**
 * The command the sandbox's shell runs: the server's own command line, quoted word by word so
 * nothing in it is read as shell syntax, after the variables the sandbox sets for it. `exec`
 * makes the server take the shell's place, so signals and its exit status are its own.
 *
 * The variables that travelled past the shells under neutral names (launch-env.ts) are set back
 * by `env` as the server starts, from their carriers (`"$HARBOR_SANDBOX_ENV_0"`): the values
 * never stand on a command line, and the carriers are removed.
 */
export function shellCommand(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  carried: ReadonlyArray<{ readonly name: string; readonly carrier: string }> = [],
): string {
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`);
  const exported = assignments.length > 0 ? `export ${assignments.join(' ')}; ` : '';
  const setBack =
    carried.length > 0
      ? ['/usr/bin/env', ...carried.map(({ carrier }) => `-u ${carrier}`), ...carried.map(({ name, carrier }) => `${quote(`${name}=`)}"$${carrier}"`)].join(' ') + ' '
      : '';
  return `${exported}exec ${setBack}${[command, ...args].map(quote).join(' ')}`;
}

/** POSIX single quotes: everything literal, a `'` closed, escaped and reopened. */
export function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
