import { useEffect, type ReactNode } from 'react';
import { hrefFor } from '../../app/routes';
import { useRouteDetail } from '../../app/use-route';

/** Settings' sections, in page order; each has a deep link (#/settings/<id>). */
export const SETTINGS_SECTIONS = [
  { id: 'model', label: 'Model' },
  { id: 'chat', label: 'Tools in chat' },
  { id: 'toolsets', label: 'Toolsets' },
  { id: 'approvals', label: 'Approvals' },
  { id: 'timeouts', label: 'Timeouts' },
  { id: 'sandbox', label: 'Sandbox' },
  { id: 'gallery', label: 'Gallery sources' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'updates', label: 'Updates' },
  { id: 'about', label: 'About' },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

const elementId = (id: string) => `settings-section-${id}`;

/** Brings a section into view and moves focus to its heading (keyboard and screen-reader users land there too). */
function reveal(id: string): void {
  const section = document.getElementById(elementId(id));
  if (!section) return;
  section.scrollIntoView?.({ block: 'start' });
  const heading = section.querySelector<HTMLElement>('h2');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

/** One section of the page: the target of its navigation link. */
export function SettingsSection({ id, children }: { readonly id: SettingsSectionId; readonly children: ReactNode }) {
  return (
    <div id={elementId(id)} className="settings-section">
      {children}
    </div>
  );
}

/**
 * The page's own navigation: a link per section. The links are hash routes under #/settings, so
 * the page stays open and a section can be linked to from elsewhere (the chat's "Open settings").
 */
export function SettingsNav({ ready }: { readonly ready: boolean }) {
  const current = useRouteDetail('settings');
  // A deep link reveals its section once the settings have loaded (before, the section is empty).
  useEffect(() => {
    if (ready && current) reveal(current);
  }, [ready, current]);
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ul>
        {SETTINGS_SECTIONS.map((section) => (
          <li key={section.id}>
            <a
              className="settings-nav__link"
              href={hrefFor('settings', section.id)}
              aria-current={current === section.id ? 'location' : undefined}
              onClick={() => {
                // The same link twice fires no hashchange: reveal it here as well.
                if (current === section.id) reveal(section.id);
              }}
            >
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
