import type { BundleSettingData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { RequiredMark } from '../../ui/RequiredMark';

export type SettingValue = string | number | boolean | string[];

/** The form for a bundle's user_config: a field per setting, sensitive ones as password fields. */
export function BundleSettings({ settings, values, onChange, idPrefix }: { readonly settings: readonly BundleSettingData[]; readonly values: Readonly<Record<string, SettingValue>>; readonly onChange: (key: string, value: SettingValue | undefined) => void; readonly idPrefix: string }) {
  if (settings.length === 0) return <p className="muted">This bundle has no settings.</p>;
  return (
    <fieldset className="bundle-settings">
      <legend className="consent__subtitle">Settings</legend>
      {settings.map((s) => {
        const id = `${idPrefix}-${s.key}`;
        const value = values[s.key];
        const description = visibleText(s.description);
        const hint = `${description}${/[.!?]$/.test(description) ? '' : '.'}${s.sensitive ? ' Kept in the system keychain, never in Harbor’s files.' : ''}`;
        if (s.type === 'boolean') {
          return (
            <label key={s.key} className="schema-form__check field">
              <input type="checkbox" checked={value === true} onChange={(e) => onChange(s.key, e.target.checked)} />
              <span>{visibleText(s.title)}</span>
              <span className="field__hint">{hint}</span>
            </label>
          );
        }
        return (
          <div key={s.key} className="field">
            <label className="field__label" htmlFor={id}>
              {visibleText(s.title)} <RequiredMark required={s.required} />
            </label>
            {s.multiple ? (
              <textarea
                id={id}
                className="input input--code"
                rows={3}
                value={Array.isArray(value) ? value.join('\n') : ''}
                placeholder="One per line"
                onChange={(e) => onChange(s.key, e.target.value.split('\n').filter((line) => line.trim() !== ''))}
              />
            ) : (
              <input
                id={id}
                className={`input${s.type === 'directory' || s.type === 'file' ? ' input--code' : ''}`}
                type={s.sensitive ? 'password' : s.type === 'number' ? 'number' : 'text'}
                autoComplete="off"
                value={value === undefined ? '' : String(value)}
                min={s.min}
                max={s.max}
                placeholder={s.type === 'directory' ? 'A full folder path' : s.type === 'file' ? 'A full file path' : undefined}
                onChange={(e) => onChange(s.key, e.target.value === '' ? undefined : s.type === 'number' ? Number(e.target.value) : e.target.value)}
              />
            )}
            <span className="field__hint">{hint}</span>
          </div>
        );
      })}
    </fieldset>
  );
}
