export function ConfigProblems({ problems, configPath }: { readonly problems: readonly string[]; readonly configPath: string }) {
  return (
    <section className="panel" aria-labelledby="problems-title">
      <h2 id="problems-title">Configuration problems</h2>
      {problems.length === 0 ? (
        <p className="muted">None: the configuration file reads cleanly.</p>
      ) : (
        <div className="notice notice--error" role="alert">
          <p className="notice__message">
            Problems in <code>{configPath}</code>: a file that does not read is not used at all, a server with a problem does not start. Fix them in the file; Harbor left it untouched.
          </p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>
                <code>{problem}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
