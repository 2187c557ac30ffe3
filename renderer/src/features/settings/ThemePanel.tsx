import { useId, useSyncExternalStore } from 'react';
import { THEMES, currentTheme, setTheme, subscribeTheme, type Theme } from './theme';

const LABELS: Record<Theme, string> = { system: 'Same as the system', light: 'Light', dark: 'Dark' };

export function ThemePanel() {
  const id = useId();
  // Shared with the palette's theme toggle, which may change it while this panel is shown.
  const theme = useSyncExternalStore(subscribeTheme, currentTheme);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Appearance</h2>
      <fieldset className="settings-radios">
        <legend className="field__label">Theme</legend>
        {THEMES.map((t) => (
          <label key={t} className="schema-form__check">
            <input
              type="radio"
              name={`${id}-theme`}
              checked={theme === t}
              onChange={() => setTheme(t)}
            />
            <span>{LABELS[t]}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
