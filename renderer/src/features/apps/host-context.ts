import type { McpUiDisplayMode, McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The display modes Harbor offers; an app gets only those it declared too. */
export const HOST_DISPLAY_MODES: readonly McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];
/** Inline, an app grows with its content up to this height, then scrolls inside itself. */
export const INLINE_MAX_HEIGHT = 640;
export const PIP_SIZE = { width: 380, height: 280 } as const;

/**
 * Harbor's own colours and fonts under the specification's variable names, as `light-dark()`
 * pairs straight from the page's stylesheet (so an app follows the theme by its color-scheme,
 * without new values on every switch).
 */
const STYLE_SOURCES: Readonly<Partial<Record<keyof McpUiStyles, string>>> = {
  '--color-background-primary': '--surface',
  '--color-background-secondary': '--surface-2',
  '--color-background-tertiary': '--bg',
  '--color-background-info': '--accent-soft',
  '--color-background-danger': '--danger-soft',
  '--color-background-success': '--ok-soft',
  '--color-background-warning': '--warn-soft',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--text-muted',
  '--color-text-info': '--accent',
  '--color-text-danger': '--danger',
  '--color-text-success': '--ok',
  '--color-text-warning': '--warn',
  '--color-border-primary': '--border',
  '--color-ring-primary': '--focus',
  '--font-sans': '--font',
  '--font-mono': '--mono',
  '--border-radius-md': '--radius',
};

export function hostStyleVariables(root: HTMLElement = document.documentElement): McpUiStyles {
  const computed = getComputedStyle(root);
  const variables: Record<string, string> = {};
  for (const [name, source] of Object.entries(STYLE_SOURCES)) {
    const value = computed.getPropertyValue(source).trim();
    if (value) variables[name] = value;
  }
  return variables as McpUiStyles;
}

function matches(query: string): boolean {
  return typeof matchMedia === 'function' && matchMedia(query).matches;
}

export interface ContextInputs {
  readonly theme: 'light' | 'dark';
  readonly displayMode: McpUiDisplayMode;
  /** The frame's width now, and (fullscreen, pip) its fixed height. */
  readonly width: number;
  readonly height?: number;
  readonly platform: 'web' | 'desktop';
  readonly hostVersion: string;
  readonly toolInfo?: McpUiHostContext['toolInfo'];
}

/** What an app learns about where it runs (ui/initialize), and again, in part, when it changes. */
export function hostContext(inputs: ContextInputs): McpUiHostContext {
  const fixed = inputs.displayMode !== 'inline' && inputs.height !== undefined;
  return {
    theme: inputs.theme,
    styles: { variables: hostStyleVariables() },
    displayMode: inputs.displayMode,
    availableDisplayModes: [...HOST_DISPLAY_MODES],
    containerDimensions: fixed ? { width: Math.round(inputs.width), height: Math.round(inputs.height!) } : { width: Math.round(inputs.width), maxHeight: INLINE_MAX_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: `Harbor/${inputs.hostVersion}`,
    platform: inputs.platform,
    deviceCapabilities: { touch: matches('(pointer: coarse)'), hover: matches('(hover: hover)') },
    ...(inputs.toolInfo ? { toolInfo: inputs.toolInfo } : {}),
  };
}
