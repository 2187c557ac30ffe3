import { useId } from 'react';
import type { SandboxStatusData } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';
import { Switch } from '../../ui/Switch';
import { describeSandboxStatus } from './describe-status';
import { NPM_REGISTRY, type SandboxFormData } from './sandbox-form-model';
import './sandbox.css';

interface Props {
  readonly value: SandboxFormData;
  readonly onChange: (value: SandboxFormData) => void;
  readonly disabled: boolean;
  /** Shown errors, keyed sandbox.allowWrite, sandbox.denyRead, sandbox.allowedDomains. */
  readonly errors: Readonly<Record<string, string>>;
  readonly status: LoadState<SandboxStatusData>;
}

export const SANDBOX_HINT =
  "It can write only to its own temporary folder and the folders below, reach only the hosts below, and never read Harbor's data, your SSH, AWS and GnuPG keys or the keychain's files.";

/** The server editor's Sandbox section: on or off, and what a sandboxed server may do. */
export function SandboxSection({ value, onChange, disabled, errors, status }: Props) {
  const id = useId();
  const set = (patch: Partial<SandboxFormData>) => onChange({ ...value, ...patch });
  const unavailable = status.status === 'ready' && !status.value.available ? status.value : undefined;
  const list = (key: 'allowWrite' | 'denyRead' | 'allowedDomains', label: string, hint: string, placeholder: string) => {
    const error = errors[`sandbox.${key}`];
    return (
      <div className="field">
        <label className="field__label" htmlFor={`${id}-${key}`}>
          {label} <span className="muted">(one per line)</span>
        </label>
        <textarea
          id={`${id}-${key}`}
          className="input"
          rows={2}
          value={value[key]}
          disabled={disabled}
          spellCheck={false}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-${key}-hint`, error ? `${id}-${key}-error` : ''].filter(Boolean).join(' ')}
          onChange={(e) => set({ [key]: e.target.value })}
        />
        <p className="field__hint" id={`${id}-${key}-hint`}>
          {hint}
        </p>
        {error ? (
          <p className="field__error" id={`${id}-${key}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <fieldset className="sandbox-section">
      <legend>Sandbox</legend>
      <Switch label="Run in a sandbox" checked={value.enabled} disabled={disabled} onChange={(enabled) => set({ enabled })} hint={SANDBOX_HINT} />
      {unavailable ? (
        <p className="notice notice--warn" role="status">
          {describeSandboxStatus(unavailable)}{' '}
          {value.enabled
            ? 'Until then this server does not start; turn the sandbox off to run it unsandboxed.'
            : 'Servers run unsandboxed here, with your rights.'}
        </p>
      ) : status.status === 'ready' && value.enabled ? (
        <p className="field__hint sandbox-section__status">{describeSandboxStatus(status.value)}</p>
      ) : null}
      {value.enabled ? (
        <>
          {list('allowWrite', 'Folders it may write', 'Besides its own temporary folder. Start paths with / or ~/.', '~/Documents/notes')}
          {list('denyRead', 'Folders it may not read', "Besides Harbor's data and your keys, which are always hidden.", '~/work/private')}
          {list('allowedDomains', 'Hosts it may reach', 'Host names, *.example.com for every subdomain, host:port for one port. Nothing else is reachable.', 'api.example.com')}
          <label className="schema-form__check field">
            <input type="checkbox" checked={value.npmRegistry} disabled={disabled} onChange={(e) => set({ npmRegistry: e.target.checked })} />
            <span>
              Let <code>npx</code> download packages (allow <code>{NPM_REGISTRY}</code>)
            </span>
          </label>
        </>
      ) : null}
    </fieldset>
  );
}
