import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { dismiss, subscribeToasts, toastSnapshot, type Toast } from './toast-store';
import './toasts.css';

export { dismiss, dismissKey, notify } from './toast-store';

const ICONS = { error: CircleAlert, warn: TriangleAlert, info: Info, ok: CircleCheck } as const;

/**
 * Where notifications appear (bottom right, above the page): a polite live region, so a screen
 * reader says each one without interrupting. Mounted once by the app shell.
 */
export function Toasts() {
  const shown = useSyncExternalStore(subscribeToasts, toastSnapshot);
  return (
    <section className="toasts" aria-label="Notifications" aria-live="polite">
      {shown.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

function ToastItem({ toast }: { readonly toast: Toast }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.durationMs);
  useEffect(() => {
    if (paused || toast.durationMs === 0) return;
    const started = Date.now();
    const timer = setTimeout(() => dismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, toast.id, toast.durationMs]);
  const Icon = ICONS[toast.tone];
  const act = () => {
    toast.action?.run?.();
    dismiss(toast.id);
  };
  return (
    <div
      className={`toast toast--${toast.tone}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <Icon className="toast__icon" aria-hidden="true" size={18} />
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        {toast.body ? <p className="toast__text">{toast.body}</p> : null}
        {toast.action?.href ? (
          // A link, not a script: it is an in-app address like any other (and a page with unsaved edits can hold it).
          <a className="button button--small toast__action" href={toast.action.href} onClick={act}>
            {toast.action.label}
          </a>
        ) : toast.action ? (
          <button type="button" className="button button--small toast__action" onClick={act}>
            {toast.action.label}
          </button>
        ) : null}
      </div>
      <button type="button" className="toast__close" aria-label={`Dismiss: ${toast.title}`} title="Dismiss" onClick={() => dismiss(toast.id)}>
        <X aria-hidden="true" size={16} />
      </button>
    </div>
  );
}
