import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
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
import { splitCommandLine } from './command-line';
import { DiagnosePanel } from './DiagnosePanel';
import { PastedServers } from './PastedServers';
import { configFromForm, emptyServerForm, formFromConfig, rowId, validateServerForm, type FormErrors, type ServerFormData } from './server-form-model';
import { useFormPaste } from './use-form-paste';
import { TextField } from './TextField';

export const TRUSTED_HINT = 'A trusted server starts without asking and its read-only tools run without asking each time; trust only code you would run yourself.';

interface Props {
  /** Absent: a new server. */
  readonly editing?: { readonly name: string; readonly config: Readonly<Record<string, unknown>> };
  /** Names already used by other servers. */
  readonly takenNames: ReadonlySet<string>;
  readonly secretNames: ReadonlySet<string> | undefined;
  /** Why the keychain cannot be reached ('' when no reason is given); undefined when it can. */
  readonly keychainProblem?: string | undefined;
  readonly onDone: (name: string) => void;
  readonly onCancel: () => void;
  /** Told whenever the form starts or stops differing from what it opened with. */
  readonly onDirtyChange?: (dirty: boolean) => void;
}

/**
 * Add or edit one server: a local program (stdio) or a remote URL. Each field is checked as it is
 * typed (the registry's own naming rules included), every problem is shown at once on Save, and
 * nothing is sent while one remains. Saved, the Host starts or restarts the server as it does for
 * every edit.
 */
export function ServerForm({ editing, takenNames, secretNames, keychainProblem, onDone, onCancel, onDirtyChange }: Props) {
  const api = useHarbor();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // What the form opened with (a registry reload while editing does not move it): "unsaved" is measured against it.
  const [initial] = useState<ServerFormData>(() => (editing ? formFromConfig(editing.name, editing.config) : emptyServerForm()));
  const [form, setForm] = useState<ServerFormData>(initial);
  // Fields the person has changed: their problems show as they type. Save shows all.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<HarborErrorData | undefined>();
  const [sandboxStatus] = useSandboxStatus();
  const others = new Set([...takenNames].filter((n) => n !== editing?.name));
  const errors: FormErrors = validateServerForm(form, others);
  const shown = (key: string): string | undefined => (showAll || touched.has(key.split('.')[0]!) ? errors[key] : undefined);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);

  const set = (patch: Partial<ServerFormData>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTouched((t) => new Set([...t, ...Object.keys(patch)]));
  };
  const rowErrors = (prefix: 'env' | 'headers') =>
    Object.fromEntries(
      Object.entries(errors)
        .filter(([k]) => k.startsWith(`${prefix}.`) && shown(k))
        .map(([k, v]) => [k.slice(prefix.length + 1), v]),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShowAll(true);
    setFailure(undefined);
    if (Object.keys(errors).length > 0) {
      queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    const name = form.name;
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
    onDirtyChange?.(false);
    onDone(name);
  };

  const canSplit = form.transport === 'stdio' && form.args.length === 0 && /\s/.test(form.command.trim());
  const paste = useFormPaste({ commandId: `${id}-command`, form, set });
  // The entry as the form holds it now, diagnosed unsaved (servers.diagnose with config) when asked.
  const [tested, setTested] = useState<Record<string, unknown> | undefined>();

  return (
    <form ref={formRef} className="panel server-form" noValidate aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} onPaste={paste.onPaste}>
      <h2 id={`${id}-title`}>{editing ? `Edit ${editing.name}` : 'Add a server'}</h2>
      {editing ? null : (
        <p className="muted server-form__paste-hint">
          You can paste a whole command line into Command, or a <code>mcpServers</code> snippet from Claude Desktop or VS Code anywhere in the form.
        </p>
      )}
      {paste.found ? (
        <PastedServers key={paste.found.text} text={paste.found.text} servers={paste.found.servers} onFill={paste.fill} onAdded={onDone} onDismiss={paste.dismissFound} />
      ) : null}
      {paste.note?.kind === 'filled' ? (
        <p className="server-form__paste-note" role="status">
          Filled in from the pasted snippet{paste.note.name ? ` (${paste.note.name})` : ''}: check it, then add it.
        </p>
      ) : null}

      <TextField id={`${id}-name`} label="Name" value={form.name} disabled={busy} error={shown('name')} onChange={(name) => set({ name })} />

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
          <TextField
            id={`${id}-command`}
            label="Command"
            code
            value={form.command}
            disabled={busy}
            placeholder="npx"
            error={shown('command')}
            hint={
              <>
                The program to run, e.g. <code>npx</code>, <code>uvx</code> or a full path. <code>{'${harbor:node}'}</code> is Harbor&apos;s own Node.
              </>
            }
            onChange={(command) => set({ command })}
          >
            {canSplit ? (
              <button
                type="button"
                className="button button--small server-form__split"
                onClick={() => {
                  const split = splitCommandLine(form.command.trim());
                  if (!split.ok) return;
                  const [command = '', ...args] = split.words;
                  set({ command, args: args.map((value) => ({ id: rowId(), value })) });
                }}
              >
                Split into command and arguments
              </button>
            ) : null}
            {paste.note?.kind === 'split' ? (
              <p className="server-form__paste-note" role="status">
                Read as a whole command line: the program <code>{paste.note.program}</code> and {paste.note.args.length === 1 ? '1 argument' : `${paste.note.args.length} arguments`}, below.{' '}
                <button type="button" className="button button--small" onClick={paste.undoSplit}>
                  Keep it as one program name
                </button>
              </p>
            ) : null}
            {paste.note?.kind === 'problem' ? (
              <p className="server-form__paste-note" role="status">
                {paste.note.text}
              </p>
            ) : null}
          </TextField>
          <ArgsEditor rows={form.args} disabled={busy} onChange={(args) => set({ args })} />
          <KeyValueEditor
            legend="Environment variables"
            noun="variable"
            rows={form.env}
            errors={rowErrors('env')}
            secretNames={secretNames}
            keychainProblem={keychainProblem}
            disabled={busy}
            onChange={(env) => set({ env })}
          />
          <TextField id={`${id}-cwd`} label={<>Working folder <span className="muted">(optional)</span></>} code value={form.cwd} disabled={busy} onChange={(cwd) => set({ cwd })} />
          <SandboxSection
            value={form.sandbox}
            onChange={(sandbox) => set({ sandbox })}
            disabled={busy}
            errors={Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith('sandbox.') && shown(k)))}
            status={sandboxStatus}
          />
        </>
      ) : (
        <>
          <TextField
            id={`${id}-url`}
            label="URL"
            type="url"
            code
            value={form.url}
            disabled={busy}
            placeholder="https://example.com/mcp"
            error={shown('url')}
            onChange={(url) => set({ url })}
          />
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
            keychainProblem={keychainProblem}
            disabled={busy}
            onChange={(headers) => set({ headers })}
          />
        </>
      )}

      <div className="server-form__switches">
        <Switch label="Enabled" checked={form.enabled} disabled={busy} onChange={(enabled) => set({ enabled })} hint="Harbor starts enabled servers and offers their tools." />
        <Switch label="Trusted" checked={form.trusted} disabled={busy} onChange={(trusted) => set({ trusted })} hint={TRUSTED_HINT} />
      </div>

      <TextField
        id={`${id}-timeout`}
        label={<>Request timeout, seconds <span className="muted">(optional)</span></>}
        className="input--number"
        inputMode="decimal"
        value={form.timeoutSeconds}
        disabled={busy}
        placeholder="60"
        error={shown('timeoutSeconds')}
        onChange={(timeoutSeconds) => set({ timeoutSeconds })}
      />

      {/* Sections other features add to a server's settings (sandbox, roots, sampling) go here, above the actions. */}
      <CapabilityFields extra={form.extra} disabled={busy} onChange={(extra) => set({ extra })} />

      {failure ? <ErrorMessage error={failure} /> : null}
      {tested ? <DiagnosePanel name={form.name.trim() || 'new-server'} config={tested} /> : null}
      <div className="actions server-form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Add server'}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => setTested(configFromForm(form).config)}>
          Test connection
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        {dirty && !busy ? <span className="muted server-form__unsaved">Unsaved changes</span> : null}
      </div>
    </form>
  );
}
