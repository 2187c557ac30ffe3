import type { InstallPlanData, PlanValue, SandboxData } from '../../../../preload/contract';
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

/** The variables that load code the person allowed, one box each (absent: the plan is only shown). */
export interface EnvAllowance {
  readonly ticked: ReadonlySet<string>;
  readonly toggle: (name: string, on: boolean) => void;
}

/** Every variable or header with the value it gets: a secret by its keychain name, a variable that loads code marked. */
function ValueList({ values }: { readonly values: readonly PlanValue[] }) {
  return (
    <ul className="install-plan__list">
      {values.map((v) => (
        <li key={v.name}>
          <code>
            {visibleText(v.name)}={v.secret !== undefined ? '' : visibleText(v.value)}
          </code>
          {v.secret !== undefined ? <> (secret, kept in the system keychain as <code>{visibleText(v.secret)}</code>)</> : null}
          {v.loadsCode ? <strong> — loads code</strong> : null}
        </li>
      ))}
    </ul>
  );
}

/** The warning about variables that make a runtime load or fetch code, and a box of its own for each. */
function CodeLoadingWarning({ names, allowance }: { readonly names: readonly string[]; readonly allowance?: EnvAllowance }) {
  return (
    <section className="install-plan__section" aria-label="Variables that load code">
      <p className="notice notice--warn" role="alert">
        Warning: {names.map((n) => visibleText(n)).join(', ')} {names.length === 1 ? 'makes' : 'make'} the server’s runtime load or fetch code you have not seen (the values are above).
        Harbor installs it only if you allow each one.
      </p>
      {allowance
        ? names.map((name) => (
            <label key={name} className="field field--inline">
              <input type="checkbox" checked={allowance.ticked.has(name)} onChange={(e) => allowance.toggle(name, e.target.checked)} /> Allow {visibleText(name)} to be set
            </label>
          ))
        : null}
    </section>
  );
}

/** Exactly what installing writes and runs: the command line or URL, env and header values, keychain entries. */
export function InstallPlanView({ plan, allowance }: { readonly plan: InstallPlanData; readonly allowance?: EnvAllowance }) {
  const values = plan.transport === 'http' ? (plan.headers ?? plan.headerNames.map((name) => ({ name, value: '' }))) : (plan.env ?? plan.envNames.map((name) => ({ name, value: '' })));
  const loading = plan.codeLoadingEnv ?? [];
  return (
    <div className="install-plan" aria-label="What will be installed">
      <section className="install-plan__section" aria-label={plan.transport === 'http' ? 'Address' : 'Command'}>
        <h3 className="consent__subtitle">{plan.transport === 'http' ? 'Address it connects to' : 'Command it will run'}</h3>
        <pre className="consent__code install-plan__target">{visibleText(plan.target)}</pre>
        {plan.updatingFrom !== undefined ? <p className="muted">Updates “{visibleText(plan.server)}” from version {visibleText(plan.updatingFrom)}, keeping its settings.</p> : null}
      </section>
      {values.length > 0 ? (
        <section className="install-plan__section" aria-label={plan.transport === 'http' ? 'Headers' : 'Environment variables'}>
          <h3 className="consent__subtitle">{plan.transport === 'http' ? 'Headers it sends' : 'Environment variables it gets'}</h3>
          <ValueList values={values} />
        </section>
      ) : null}
      {loading.length > 0 ? <CodeLoadingWarning names={loading} {...(allowance ? { allowance } : {})} /> : null}
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
