import type { ReactNode } from 'react';

interface Props {
  readonly id: string;
  readonly label: ReactNode;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Shown under the field, and read with it. */
  readonly hint?: ReactNode;
  /** The field's problem, as a sentence; shown and announced with the field. */
  readonly error?: string | undefined;
  readonly disabled?: boolean;
  readonly code?: boolean;
  readonly placeholder?: string;
  readonly type?: 'text' | 'url';
  readonly inputMode?: 'decimal';
  readonly className?: string;
  readonly children?: ReactNode;
}

/** One labelled text input of the server editor, with its hint and its problem tied to it for screen readers. */
export function TextField({ id, label, value, onChange, hint, error, disabled = false, code = false, placeholder, type = 'text', inputMode, className, children }: Props) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`input${code ? ' input--code' : ''}${className ? ` ${className}` : ''}`}
        type={type}
        value={value}
        disabled={disabled}
        spellCheck={false}
        autoComplete="off"
        {...(placeholder ? { placeholder } : {})}
        {...(inputMode ? { inputMode } : {})}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
