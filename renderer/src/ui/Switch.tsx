import { useId, type ReactNode } from 'react';
import './controls.css';

interface Props {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly disabled?: boolean;
  /** One sentence under the switch saying what it does. */
  readonly hint?: ReactNode;
  /** Hide the label visually (it still names the switch), e.g. in a row that says what it is. */
  readonly hideLabel?: boolean;
  /** A fuller name for assistive technology when the visible label is short ("Secret" → "API_KEY is secret"). */
  readonly accessibleName?: string;
}

/** An on/off switch: a checkbox with role="switch", so it is named, focusable and toggled with Space. */
export function Switch({ label, checked, onChange, disabled = false, hint, hideLabel = false, accessibleName }: Props) {
  const hintId = useId();
  return (
    <span className="switch-wrap">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          aria-label={accessibleName}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className={hideLabel ? 'visually-hidden' : undefined}>{label}</span>
      </label>
      {hint ? (
        <span className="field__hint switch__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
    </span>
  );
}
