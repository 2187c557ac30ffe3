import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import '../ui/controls.css';
import { Nav } from './Nav';
import type { RouteId } from './routes';
import { useNavCollapsed } from './use-nav-collapsed';

const NAV_ID = 'main-nav';

interface Props {
  readonly current: RouteId;
  /** What goes below the navigation (the command palette's button), told whether the side is a rail. */
  readonly footer?: (rail: boolean) => ReactNode;
}

/** The app's side: the brand, the navigation, and the button that folds it into an icon rail. */
export function Sidebar({ current, footer }: Props) {
  const [collapsed, toggle] = useNavCollapsed();
  const label = collapsed ? 'Expand navigation' : 'Collapse navigation';
  const Icon = collapsed ? PanelLeftOpen : PanelLeftClose;
  return (
    <aside className={`shell__side${collapsed ? ' shell__side--rail' : ''}`}>
      <div className="shell__top">
        <p className="brand">{collapsed ? <span className="visually-hidden">Harbor</span> : 'Harbor'}</p>
        <button type="button" className="icon-button nav-toggle" aria-expanded={!collapsed} aria-controls={NAV_ID} aria-label={label} title={label} onClick={toggle}>
          <Icon size={16} strokeWidth={1.75} aria-hidden="true" focusable="false" />
        </button>
      </div>
      <Nav id={NAV_ID} current={current} rail={collapsed} />
      {footer?.(collapsed)}
    </aside>
  );
}
