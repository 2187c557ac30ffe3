import { useId, useState, type FormEvent } from 'react';
import type { HarborErrorData, SettingsData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Mode = 'auto' | 'on' | 'off';

/** Progressive discovery (tool search), code mode and the turn's step limit. */
export function ChatPanel({ settings, onSaved }: { readonly settings: SettingsData; readonly onSaved: () => void }) {
  const api = useHarbor();
  const id = useId();
  const { chat, defaults } = settings;
  const [mode, setMode] = useState<Mode>(chat.toolSearch ?? 'auto');
  const [percent, setPercent] = useState(chat.toolSearchThreshold !== undefined ? String(round(chat.toolSearchThreshold * 100)) : '');
  const [maxSteps, setMaxSteps] = useState(chat.maxSteps !== undefined ? String(chat.maxSteps) : '');
  const [codeMode, setCodeMode] = useState<Mode>(chat.codeMode ?? 'auto');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [saved, setSaved] = useState(false);
  const contextWindow = settings.model?.contextWindow ?? defaults.contextWindow;
  const effective = percent.trim() === '' ? defaults.toolSearchThreshold : Number(percent) / 100;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setError(undefined);
    const threshold = percent.trim() === '' ? undefined : Number(percent) / 100;
    const steps = maxSteps.trim() === '' ? undefined : Number(maxSteps);
    const check =
      threshold !== undefined && !(threshold > 0 && threshold <= 1)
        ? 'The threshold is a percentage above 0 and at most 100.'
        : steps !== undefined && !(Number.isInteger(steps) && steps > 0)
          ? 'Steps is a whole number above 0.'
          : undefined;
    setProblem(check);
    if (check) return;
    setBusy(true);
    const result = await api.settings.setChat({
      chat: {
        ...(mode !== 'auto' ? { toolSearch: mode } : {}),
        ...(threshold !== undefined ? { toolSearchThreshold: threshold } : {}),
        ...(steps !== undefined ? { maxSteps: steps } : {}),
        ...(codeMode !== 'auto' ? { codeMode } : {}),
        ...(chat.resultCapBytes !== undefined ? { resultCapBytes: chat.resultCapBytes } : {}),
      },
    });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    else {
      setSaved(true);
      onSaved();
    }
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Tools in chat</h2>
      <form noValidate onSubmit={(e) => void save(e)}>
        <ModeChoice
          legend="Progressive discovery"
          hint="With many tools, their definitions fill the model's context. Then the model gets two small tools instead — search the tools, and call one — and finds what it needs."
          name={`${id}-mode`}
          value={mode}
          disabled={busy}
          onChange={setMode}
          labels={{ auto: 'Automatic: when the tool definitions exceed the threshold', on: 'Always', off: 'Never: always send every enabled tool' }}
        />
        <ModeChoice
          legend="Code mode"
          hint="The model can write one short JavaScript program that calls several tools in a sandbox, so intermediate results never pass through it: fewer round trips and tokens when a task chains calls. Each call the program makes still asks for your approval."
          name={`${id}-code`}
          value={codeMode}
          disabled={busy}
          onChange={setCodeMode}
          labels={{ auto: 'Beside the tools: the model picks a direct call or a program', on: 'Instead of the tools: every call goes through a program', off: 'Never' }}
        />
        <div className="settings-grid">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-threshold`}>
              Threshold, % of the context window
            </label>
            <input
              id={`${id}-threshold`}
              className="input input--number"
              inputMode="decimal"
              value={percent}
              placeholder={String(round(defaults.toolSearchThreshold * 100))}
              disabled={busy || mode !== 'auto'}
              aria-describedby={`${id}-threshold-hint`}
              onChange={(e) => setPercent(e.target.value)}
            />
            <p className="field__hint" id={`${id}-threshold-hint`}>
              {Number.isFinite(effective) && effective > 0 ? `≈ ${Math.round(effective * contextWindow).toLocaleString()} tokens of a ${contextWindow.toLocaleString()}-token window.` : ''}
            </p>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-steps`}>
              Steps per turn
            </label>
            <input
              id={`${id}-steps`}
              className="input input--number"
              inputMode="numeric"
              value={maxSteps}
              placeholder={String(defaults.maxSteps)}
              disabled={busy}
              onChange={(e) => setMaxSteps(e.target.value)}
            />
          </div>
        </div>
        {problem ? <p className="field__error">{problem}</p> : null}
        {error ? <ErrorMessage error={error} /> : null}
        {saved ? (
          <p className="notice notice--ok" role="status">
            Saved.
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

interface ModeChoiceProps {
  readonly legend: string;
  readonly hint: string;
  readonly name: string;
  readonly value: Mode;
  readonly disabled: boolean;
  readonly onChange: (mode: Mode) => void;
  readonly labels: Readonly<Record<Mode, string>>;
}

/** One auto / on / off setting as a group of radio buttons, each saying what it does. */
function ModeChoice({ legend, hint, name, value, disabled, onChange, labels }: ModeChoiceProps) {
  return (
    <fieldset className="settings-radios">
      <legend className="field__label">{legend}</legend>
      <p className="field__hint">{hint}</p>
      {(['auto', 'on', 'off'] as const).map((mode) => (
        <label key={mode} className="schema-form__check">
          <input type="radio" name={name} checked={value === mode} disabled={disabled} onChange={() => onChange(mode)} />
          <span>{labels[mode]}</span>
        </label>
      ))}
    </fieldset>
  );
}
