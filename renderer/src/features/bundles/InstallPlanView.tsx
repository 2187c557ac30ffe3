import type { InstallPlanData, SandboxData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

/** What the server may do once it runs: whether it runs in the sandbox on this machine, and if not, why. */
export function SandboxView({ sandbox }: { readonly sandbox: SandboxData }) {
  return (
    <section className="install-plan__section" aria-label="What it may do">
      <h3 className="consent__subtitle">What it may do</h3>
      <p>
        <span className={`badge ${sandbox.enforced ? 'badge--ready' : 'badge--starting'}`}>
          {sandbox.enforced ? 'Sandboxed' : sandbox.requested ? 'Sandboxed, but the sandbox cannot run here' : 'Not sandboxed'}
        </span>
      </p>
      {sandbox.note ? <p className="muted">{sandbox.note}</p> : null}
      <ul className="install-plan__list">
        {sandbox.allowed.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

/** Exactly what installing writes and runs: the command line or URL, env and header names, keychain entries. */
export function InstallPlanView({ plan }: { readonly plan: InstallPlanData }) {
  return (
    <div className="install-plan" aria-label="What will be installed">
      <section className="install-plan__section" aria-label={plan.transport === 'http' ? 'Address' : 'Command'}>
        <h3 className="consent__subtitle">{plan.transport === 'http' ? 'Address it connects to' : 'Command it will run'}</h3>
        <pre className="consent__code install-plan__target">{visibleText(plan.target)}</pre>
        {plan.updatingFrom !== undefined ? <p className="muted">Updates “{visibleText(plan.server)}” from version {visibleText(plan.updatingFrom)}, keeping its settings.</p> : null}
      </section>
      {plan.envNames.length > 0 || plan.headerNames.length > 0 ? (
        <section className="install-plan__section" aria-label={plan.transport === 'http' ? 'Headers' : 'Environment variables'}>
          <h3 className="consent__subtitle">{plan.transport === 'http' ? 'Headers it sends' : 'Environment variables it gets'}</h3>
          <p>{[...plan.envNames, ...plan.headerNames].map((name) => visibleText(name)).join(', ')}</p>
        </section>
      ) : null}
      {plan.secrets.length > 0 ? (
        <section className="install-plan__section" aria-label="Secrets">
          <h3 className="consent__subtitle">Kept in the system keychain</h3>
          <ul className="install-plan__list">
            {plan.secrets.map((s) => (
              <li key={s.key}>
                {visibleText(s.key)} → <code>{visibleText(s.secret)}</code> (only this server gets it)
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {plan.sandbox ? <SandboxView sandbox={plan.sandbox} /> : null}
    </div>
  );
}
