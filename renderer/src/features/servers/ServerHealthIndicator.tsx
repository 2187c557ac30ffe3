import { CircleAlert, TriangleAlert } from 'lucide-react';
import { hrefFor } from '../../app/routes';
import { describeHealth } from './server-health';
import { useServerHealth } from './use-server-health';
import './server-health.css';

/**
 * The navigation's health signal beside "Servers": red with the count of failed servers, amber
 * with the count waiting for the person; nothing when all is well. A link to the first one.
 */
export function ServerHealthIndicator() {
  const health = useServerHealth();
  const text = describeHealth(health);
  if (!text) return null;
  const failed = health.failed.length > 0;
  const first = health.failed[0] ?? health.attention[0]?.name ?? '';
  const Icon = failed ? CircleAlert : TriangleAlert;
  return (
    // Named by its hidden sentence, not an aria-label: the visible count alone would not match a label.
    <a className={`server-health server-health--${failed ? 'failed' : 'attention'}`} href={hrefFor('servers', first)} title={text}>
      <Icon aria-hidden="true" size={14} />
      <span aria-hidden="true">{health.failed.length + health.attention.length}</span>
      <span className="visually-hidden">{text}</span>
    </a>
  );
}
