import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Base styles first: the controls' and features' own CSS (same specificity) must come after them to win.
import './styles.css';
import './app/shell.css';
import './ui/blocks.css';
import { App } from './app/App';
import { connectBridge } from './bridge/connect';
import { ActivityLog } from './features/activity/activity-log';
import { applyTheme, loadTheme } from './features/settings/theme';

// The saved theme before the first paint, so a dark choice never flashes light.
applyTheme(loadTheme());

// One bridge for the page's lifetime: the Electron preload's window.harbor, or browser mode's WebSocket.
const bridge = connectBridge(window);
const activity = new ActivityLog(bridge.api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App bridge={bridge} activity={activity} />
  </StrictMode>,
);
