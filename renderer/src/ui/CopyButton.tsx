import { useCopy } from './use-copy';

/** "Copy" that says "Copied" (or why not) for a moment, announced to screen readers. */
export function CopyButton({ text, label = 'Copy', className = 'button button--small' }: { readonly text: string; readonly label?: string; readonly className?: string }) {
  const [status, copy] = useCopy(text);
  return (
    <button type="button" className={className} onClick={copy}>
      <span aria-live="polite">{status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : label}</span>
    </button>
  );
}
