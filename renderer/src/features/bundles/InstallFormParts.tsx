import type { ReactNode } from 'react';
import type { HarborErrorData, InstallPlanData } from '../../../../preload/contract';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { InstallPlanView, type EnvAllowance } from './InstallPlanView';

/** The name the installed server gets in the registry (empty: the Host's suggestion). */
export function ServerNameField({ idPrefix, value, onChange }: { readonly idPrefix: string; readonly value: string; readonly onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${idPrefix}-name`}>
        Server name
      </label>
      <input id={`${idPrefix}-name`} className="input" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

interface OutlookProps {
  readonly plan: InstallPlanData | undefined;
  readonly problem: HarborErrorData | undefined;
  readonly failure: HarborErrorData | undefined;
  /** Shown while there is no plan yet (a bundle's sandbox, known before its settings are filled). */
  readonly beforePlan?: ReactNode;
  /** The boxes of the variables that load code. */
  readonly allowance?: EnvAllowance;
}

/** What the install will write and run, or why it cannot be installed yet, and a failed install's error. */
export function InstallOutlook({ plan, problem, failure, beforePlan, allowance }: OutlookProps) {
  return (
    <>
      {plan ? <InstallPlanView plan={plan} {...(allowance ? { allowance } : {})} /> : (beforePlan ?? null)}
      {!plan && problem ? <p className="notice notice--warn">{problem.message}</p> : null}
      {failure ? <ErrorMessage error={failure} /> : null}
    </>
  );
}

interface ActionsProps {
  readonly label: string;
  readonly busy: boolean;
  /** Installable: a plan for the current inputs has arrived. */
  readonly ready: boolean;
  readonly onCancel: () => void;
  readonly onInstall: () => void;
}

/** Cancel and the Install (or Update) button, which waits for the plan of what the form says now. */
export function InstallActions({ label, busy, ready, onCancel, onInstall }: ActionsProps) {
  return (
    <footer className="modal__actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="button" className="button button--primary" disabled={busy || !ready} onClick={onInstall}>
        {busy ? 'Installing…' : label}
      </button>
    </footer>
  );
}
