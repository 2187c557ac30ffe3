import type { ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

/** Names shown as a list of code items (env variables, header names), each escaped. */
function NameList({ names, label }: { readonly names: readonly string[]; readonly label: string }) {
  return (
    <ul className="consent__env" aria-label={label}>
      {names.map((name) => (
        <li key={name}>
          <code>{visibleText(name)}</code>
        </li>
      ))}
    </ul>
  );
}

/** A stdio launch: the exact command line, its working folder and the names of its environment. */
export function CommandSection({ launch }: { readonly launch: NonNullable<ConsentRequest['launch']> }) {
  return (
    <section className="consent__section" aria-label="Command">
      <h3 className="consent__subtitle">Command line</h3>
      <pre className="consent__code">{visibleText(launch.commandLine)}</pre>
      {launch.cwd ? (
        <p>
          Working folder: <code>{visibleText(launch.cwd)}</code>
        </p>
      ) : null}
      <h3 className="consent__subtitle">Environment variables it gets</h3>
      {launch.envNames.length > 0 ? (
        <>
          <NameList names={launch.envNames} label="Environment variable names" />
          <p className="muted">Values are not shown.</p>
        </>
      ) : (
        <p className="muted">None besides Harbor’s basic set (PATH, HOME…).</p>
      )}
    </section>
  );
}

/** A remote server's first request: the address it goes to and the names of the headers it carries. */
export function RemoteSection({ remote }: { readonly remote: NonNullable<ConsentRequest['remote']> }) {
  return (
    <section className="consent__section" aria-label="Address">
      <h3 className="consent__subtitle">Address{remote.legacySse ? ' (HTTP+SSE)' : ''}</h3>
      <pre className="consent__code">{visibleText(remote.url)}</pre>
      <h3 className="consent__subtitle">Headers it sends</h3>
      {remote.headerNames.length > 0 ? (
        <>
          <NameList names={remote.headerNames} label="Header names" />
          <p className="muted">Values are not shown.</p>
        </>
      ) : (
        <p className="muted">None besides the protocol’s own.</p>
      )}
    </section>
  );
}

/** A secret grant: which keychain secret, where the server would get it, and what the server is. */
export function SecretSection({ secret }: { readonly secret: NonNullable<ConsentRequest['secret']> }) {
  const carrier = secret.field === 'env' ? 'environment variable' : secret.field === 'oauth' ? 'sign-in setting' : 'header';
  return (
    <section className="consent__section" aria-label="Secret">
      <h3 className="consent__subtitle">Keychain secret</h3>
      <p>
        <code>{visibleText(secret.name)}</code>
      </p>
      <h3 className="consent__subtitle">
        Sent as the {carrier}
        {secret.keys.length > 1 ? 's' : ''}
      </h3>
      <NameList names={secret.keys} label={`${carrier} names`} />
      <h3 className="consent__subtitle">{secret.field === 'env' ? 'To the program' : secret.field === 'oauth' ? 'To the sign-in service of' : 'To the address'}</h3>
      <pre className="consent__code">{visibleText(secret.target)}</pre>
    </section>
  );
}
