import { useId, useRef, useState, type FormEvent } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Switch } from '../../ui/Switch';
import { SandboxSection } from '../sandbox/SandboxSection';
import { useSandboxStatus } from '../sandbox/use-sandbox';
import { ArgsEditor } from './ArgsEditor';
import { CapabilityFields } from './CapabilityFields';
import { KeyValueEditor } from './KeyValueEditor';
import {
  configFromForm,
  emptyServerForm,
  formFromConfig,
  rowId,
  splitCommandLine,
  validateServerForm,
  type FormErrors,
  type ServerFormData,
} from './server-form-model';

export const TRUSTED_HINT = 'A trusted server starts without asking and its read-only tools run without asking each time; trust only code you would run yourself.';

interface Props {
  /** Absent: a new server. */
  readonly editing?: { readonly name: string; readonly config: Readonly<Record<string, unknown>> };
  /** Names already used by other servers. */
  readonly takenNames: ReadonlySet<string>;
  readonly secretNames: ReadonlySet<string> | undefined;
  readonly onDone: (name: string) => void;
  readonly onCancel: () => void;
}

/** Add or edit one server: a local program (stdio) or a remote URL. */
export function ServerForm({ editing, takenNames, secretNames, onDone, onCancel }: Props) {
  const api = useHarbor();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<ServerFormData>(() => (editing ? formFromConfig(editing.name, editing.config) : emptyServerForm()));
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<HarborErrorData | undefined>();
  const [sandboxStatus] = useSandboxStatus();
  const others = new Set([...takenNames].filter((n) => n !== editing?.name));
  const errors: FormErrors = validateServerForm(form, others);
  const shown = showErrors ? errors : {};
  const set = (patch: Partial<ServerFormData>) => setForm((f) => ({ ...f, ...patch }));
  const rowErrors = (prefix: 'env' | 'headers') =>
    Object.fromEntries(Object.entries(shown).filter(([k]) => k.startsWith(`${prefix}.`)).map(([k, v]) => [k.slice(prefix.length + 1), v]));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShowErrors(true);
    setFailure(undefined);
    if (Object.keys(errors).length > 0) {
      queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    const name = form.name.trim();
    const { config, secrets } = configFromForm(form);
    // Secret values go with the save: the Host stores them in the keychain first, and they belong
    // to this server (Harbor sends a secret only to the servers it belongs to).
    const withSecrets = secrets.length > 0 ? { secrets } : {};
    const saved = editing
      ? await api.servers.update({ name: editing.name, config, ...(name !== editing.name ? { newName: name } : {}), ...withSecrets })
      : await api.servers.add({ name, config, ...withSecrets });
    setBusy(false);
    if (!saved.ok) {
      setFailure(asErrorData(saved.error));
      return;
    }
    // A new server starts right away (launch consent, if needed, is asked app-wide).
    if (!editing && form.enabled) void api.servers.start({ name });
    onDone(name);
  };

  const field = (key: string) => ({ invalid: shown[key] ? true : undefined, describedBy: shown[key] ? `${id}-${key}-error` : undefined });
  const error = (key: string) =>
    shown[key] ? (
      <p className="field__error" id={`${id}-${key}-error`}>
        {shown[key]}
      </p>
    ) : null;
  const canSplit = form.transport === 'stdio' && form.args.length === 0 && /\s/.test(form.command.trim());

  return (
    <form ref={formRef} className="panel server-form" noValidate aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <h2 id={`${id}-title`}>{editing ? `Edit ${editing.name}` : 'Add a server'}</h2>

      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Name
        </label>
        <input
          id={`${id}-name`}
          className="input"
          value={form.name}
          disabled={busy}
          aria-invalid={field('name').invalid}
          aria-describedby={field('name').describedBy}
          onChange={(e) => set({ name: e.target.value })}
        />
        {error('name')}
      </div>

      <fieldset className="field server-form__kind">
        <legend className="field__label">Kind</legend>
        <label className="schema-form__check">
          <input type="radio" name={`${id}-transport`} checked={form.transport === 'stdio'} disabled={busy} onChange={() => set({ transport: 'stdio' })} />
          <span>Local program (stdio)</span>
        </label>
        <label className="schema-form__check">
          <input type="radio" name={`${id}-transport`} checked={form.transport === 'http'} disabled={busy} onChange={() => set({ transport: 'http' })} />
          <span>Remote server (URL)</span>
        </label>
      </fieldset>

      {form.transport === 'stdio' ? (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-command`}>
              Command
            </label>
            <input
              id={`${id}-command`}
              className="input input--code"
              value={form.command}
              disabled={busy}
              spellCheck={false}
              placeholder="npx"
              aria-invalid={field('command').invalid}
              aria-describedby={[`${id}-command-hint`, field('command').describedBy].filter(Boolean).join(' ')}
              onChange={(e) => set({ command: e.target.value })}
            />
            <p className="field__hint" id={`${id}-command-hint`}>
              The program to run, e.g. <code>npx</code>, <code>uvx</code> or a full path. <code>{'${harbor:node}'}</code> is Harbor&apos;s own Node.
            </p>
            {canSplit ? (
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  const [command = '', ...args] = splitCommandLine(form.command);
                  set({ command, args: args.map((value) => ({ id: rowId(), value })) });
                }}
              >
                Split into command and arguments
              </button>
            ) : null}
            {error('command')}
          </div>
          <ArgsEditor rows={form.args} disabled={busy} onChange={(args) => set({ args })} />
          <KeyValueEditor
            legend="Environment variables"
            noun="variable"
            rows={form.env}
            errors={rowErrors('env')}
            secretNames={secretNames}
            disabled={busy}
            onChange={(env) => set({ env })}
          />
          <div className="field">
            <label className="field__label" htmlFor={`${id}-cwd`}>
              Working folder <span className="muted">(optional)</span>
            </label>
            <input id={`${id}-cwd`} className="input input--code" value={form.cwd} disabled={busy} spellCheck={false} onChange={(e) => set({ cwd: e.target.value })} />
          </div>
          <SandboxSection
            value={form.sandbox}
            onChange={(sandbox) => set({ sandbox })}
            disabled={busy}
            errors={Object.fromEntries(Object.entries(shown).filter(([k]) => k.startsWith('sandbox.')))}
            status={sandboxStatus}
          />
        </>
      ) : (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-url`}>
              URL
            </label>
            <input
              id={`${id}-url`}
              className="input input--code"
              type="url"
              value={form.url}
              disabled={busy}
              spellCheck={false}
              placeholder="https://example.com/mcp"
              aria-invalid={field('url').invalid}
              aria-describedby={field('url').describedBy}
              onChange={(e) => set({ url: e.target.value })}
            />
            {error('url')}
          </div>
          <label className="schema-form__check field">
            <input type="checkbox" checked={form.legacySse} disabled={busy} onChange={(e) => set({ legacySse: e.target.checked })} />
            <span>Old HTTP+SSE server (skip Streamable HTTP)</span>
          </label>
          <KeyValueEditor
            legend="Headers"
            noun="header"
            rows={form.headers}
            errors={rowErrors('headers')}
            secretNames={secretNames}
            disabled={busy}
            onChange={(headers) => set({ headers })}
          />
        </>
      )}

      <div className="server-form__switches">
        <Switch label="Enabled" checked={form.enabled} disabled={busy} onChange={(enabled) => set({ enabled })} hint="Harbor starts enabled servers and offers their tools." />
        <Switch label="Trusted" checked={form.trusted} disabled={busy} onChange={(trusted) => set({ trusted })} hint={TRUSTED_HINT} />
      </div>

      <CapabilityFields extra={form.extra} disabled={busy} onChange={(extra) => set({ extra })} />

      <div className="field">
        <label className="field__label" htmlFor={`${id}-timeout`}>
          Request timeout, seconds <span className="muted">(optional)</span>
        </label>
        <input
          id={`${id}-timeout`}
          className="input input--number"
          inputMode="decimal"
          value={form.timeoutSeconds}
          disabled={busy}
          placeholder="60"
          aria-invalid={field('timeoutSeconds').invalid}
          aria-describedby={field('timeoutSeconds').describedBy}
          onChange={(e) => set({ timeoutSeconds: e.target.value })}
        />
        {error('timeoutSeconds')}
      </div>

      {failure ? <ErrorMessage error={failure} /> : null}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Add server'}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
