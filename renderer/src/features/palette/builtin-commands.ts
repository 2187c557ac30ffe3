import { ROUTES, hrefFor } from '../../app/routes';
import { navigate } from '../../app/use-route';
import { SETTINGS_SECTIONS } from '../settings/SettingsSections';
import { resolvedTheme, setTheme } from '../settings/theme';
import { requestChat } from './chat-requests';
import type { Command } from './command-registry';
import { openPalette, togglePalette } from './palette-state';

/** Ctrl/Cmd-K: the one shortcut that also works while typing. */
export const PALETTE_SHORTCUT = '$mod+KeyK';

/**
 * The app's own commands: a new chat, each view (Ctrl/Cmd-1…9 in the navigation's order), each
 * Settings section, the theme, and the list of shortcuts. They register like any feature's.
 */
export function builtinCommands(): Command[] {
  return [
    {
      id: 'palette.open',
      title: 'Command palette',
      group: 'Commands',
      keywords: 'search find',
      shortcuts: [PALETTE_SHORTCUT],
      run: togglePalette,
    },
    {
      id: 'chat.new',
      title: 'New chat',
      group: 'Commands',
      keywords: 'conversation',
      // Ctrl/Cmd-N in the desktop app; a browser tab keeps it (new window), so Ctrl/Cmd-Shift-O too.
      shortcuts: ['$mod+KeyN', '$mod+Shift+KeyO'],
      run: () => requestChat({ kind: 'new' }),
    },
    {
      id: 'palette.shortcuts',
      title: 'Keyboard shortcuts',
      group: 'Commands',
      keywords: 'keys hotkeys help',
      run: () => openPalette('shortcuts'),
    },
    {
      id: 'theme.toggle',
      title: 'Toggle light/dark theme',
      group: 'Commands',
      keywords: 'appearance dark light mode',
      run: () => setTheme(resolvedTheme() === 'dark' ? 'light' : 'dark'),
    },
    ...ROUTES.map(
      (route, index): Command => ({
        id: `view.${route.id}`,
        title: `Go to ${route.label}`,
        group: 'Views',
        ...(index < 9 ? { shortcuts: [`$mod+Digit${index + 1}`] } : {}),
        run: () => navigate(hrefFor(route.id)),
      }),
    ),
    ...SETTINGS_SECTIONS.map(
      (section): Command => ({
        id: `settings.${section.id}`,
        title: `Settings: ${section.label}`,
        group: 'Settings sections',
        run: () => navigate(hrefFor('settings', section.id)),
      }),
    ),
  ];
}
