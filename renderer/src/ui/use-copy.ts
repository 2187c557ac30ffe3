import { useCallback, useEffect, useState } from 'react';
import { copyText } from './clipboard';

/** Copies text on demand and says how it went for two seconds ("copied", "failed", then idle again). */
export function useCopy(text: string): readonly ['idle' | 'copied' | 'failed', () => void] {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (status === 'idle') return;
    const timer = setTimeout(() => setStatus('idle'), 2000);
    return () => clearTimeout(timer);
  }, [status]);
  const copy = useCallback(() => void copyText(text).then((ok) => setStatus(ok ? 'copied' : 'failed')), [text]);
  return [status, copy] as const;
}
