import { useEffect, useState } from 'react';
import { copyText } from './clipboard';

/** "Copy" that says "Copied" (or why not) for a moment, announced to screen readers. */
export function CopyButton({ text, label = 'Copy', className = 'button button--small' }: { readonly text: string; readonly label?: string; readonly className?: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (status === 'idle') return;
    const timer = setTimeout(() => setStatus('idle'), 2000);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <button type="button" className={className} onClick={() => void copyText(text).then((ok) => setStatus(ok ? 'copied' : 'failed'))}>
      <span aria-live="polite">{status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : label}</span>
    </button>
  );
}
