import './apps.css';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppView, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { markOnce } from '../../lib/user-timing';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { AppRequestDialog } from './AppRequestDialog';
import type { AppConversation, AppSession } from './app-session';
import { HOST_DISPLAY_MODES, hostContext, INLINE_MAX_HEIGHT, PIP_SIZE } from './host-context';
import { hostInfo, type HostInfo } from './host-info';
import { separateSite } from './sandbox-site';
import type { PersonAnswer, PersonRequest } from './person-requests';
import { usePageTheme } from './use-page-theme';

export interface AppFrameProps {
  readonly server: string;
  /** The tool whose app to show (its _meta.ui.resourceUri), or the ui:// resource itself. */
  readonly tool?: string;
  readonly uri?: string;
  readonly toolCallId?: string;
  readonly conversation?: AppConversation;
  readonly input?: Record<string, unknown>;
  /** Arguments still being written by the model (best effort), before `input`. */
  readonly partialInput?: Record<string, unknown>;
  readonly result?: CallToolResult;
  /** Why the tool call did not produce a result (stopped, denied, failed). */
  readonly cancelled?: string;
  /** Off screen: the app is wound down (and shown again, fresh, when this turns false). */
  readonly paused?: boolean;
  /** The app cannot be shown (its resource is missing or invalid): the page shows the raw result instead. */
  readonly onUnavailable?: () => void;
}

type Phase =
  | { readonly kind: 'opening' }
  | { readonly kind: 'loading' | 'ready'; readonly view: AppView }
  | { readonly kind: 'error'; readonly error: HarborErrorData }
  | { readonly kind: 'ended'; readonly why: 'navigated' | 'closed' | 'paused' }
  /** Harbor stopped the app: it sent more than it may (`reason`: what it did). */
  | { readonly kind: 'ended'; readonly why: 'stopped'; readonly reason: string };

/** A phase, and the opening it belongs to (a phase of an earlier opening no longer counts). */
type Tagged = Phase & { readonly opening: string };

interface Asked {
  readonly request: PersonRequest;
  readonly resolve: (answer: PersonAnswer) => void;
}

const LOADING_HEIGHT = 120;

/**
 * Unloads the app's sandbox from the frame (kept in the page: it is reused when the app is shown
 * again) — unless the frame already shows a newer app.
 */
function blank(frame: HTMLIFrameElement | null, sandboxUrl: string): void {
  if (frame?.isConnected && frame.src.startsWith(sandboxUrl)) frame.src = 'about:blank';
}
const TITLE_BAR = 40;

/**
 * One MCP App in a double frame: this page frames the app's sandbox proxy (another origin), which
 * frames the app (an opaque origin). The frame grows with the app's content, follows the page's
 * theme, shows a loading state and a clear error, goes full screen or picture-in-picture when the
 * app asks (and declared it can), and winds the app down when it is paused or removed.
 */
export function AppFrame(props: AppFrameProps) {
  const { server, tool, uri, toolCallId, conversation, paused } = props;
  const api = useHarbor();
  const theme = usePageTheme();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [tagged, setTagged] = useState<Tagged | undefined>();
  const [session, setSession] = useState<AppSession | undefined>();
  const [info, setInfo] = useState<HostInfo | undefined>();
  const [mode, setMode] = useState<McpUiDisplayMode>('inline');
  const modeRef = useRef(mode);
  const [height, setHeight] = useState(LOADING_HEIGHT);
  const [width, setWidth] = useState(0);
  const [asked, setAsked] = useState<readonly Asked[]>([]);
  const [attempt, setAttempt] = useState(0);
  const resultAt = useRef<number | undefined>(undefined);
  const painted = useRef(false);
  const conversationRef = useRef(conversation);
  const unavailableRef = useRef(props.onUnavailable);
  useLayoutEffect(() => {
    conversationRef.current = conversation;
    modeRef.current = mode;
    unavailableRef.current = props.onUnavailable;
  });
  // Each opening of the app (another app, a retry, back from a pause) has its own phases.
  const opening = `${server}\u0000${tool ?? ''}\u0000${uri ?? ''}\u0000${toolCallId ?? ''}\u0000${attempt}`;
  const current = tagged?.opening === opening ? tagged : undefined;
  // An app that closed itself (or left its frame) stays closed, on screen or off, until shown again.
  const endedByApp = current?.kind === 'ended' && current.why !== 'paused';
  const phase: Phase = endedByApp ? current : paused ? { kind: 'ended', why: 'paused' } : (current ?? { kind: 'opening' });

  const ask = useCallback((request: PersonRequest) => new Promise<PersonAnswer>((resolve) => setAsked((queue) => [...queue, { request, resolve }])), []);

  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // Open the app, then connect its bridge to the (already present, still blank) frame.
  useEffect(() => {
    if (paused || endedByApp) return;
    const setPhase = (next: Phase) => setTagged({ ...next, opening });
    let disposed = false;
    let started: AppSession | undefined;
    let sandboxUrl = '';
    painted.current = false;
    void (async () => {
      const conv = conversationRef.current;
      const [opened, host, { AppSession: Session }] = await Promise.all([
        api.apps.open({ server, ...(tool ? { tool } : {}), ...(uri ? { uri } : {}), ...(conv ? { conversationId: conv.id } : {}), ...(toolCallId ? { toolCallId } : {}) }),
        hostInfo(api),
        import('./app-session'),
      ]);
      if (disposed || !frameRef.current) {
        if (opened.ok) void api.apps.close({ instanceId: opened.value.instanceId });
        return;
      }
      if (!opened.ok) {
        setPhase({ kind: 'error', error: asErrorData(opened.error) });
        unavailableRef.current?.();
        return;
      }
      // Framed on another site than the page (its own process: an app's work is never the page's).
      const view = { ...opened.value, sandboxUrl: separateSite(opened.value.sandboxUrl, window.location.origin) };
      sandboxUrl = view.sandboxUrl;
      const frame = frameRef.current;
      frame.setAttribute('allow', view.policy.allow);
      setInfo(host);
      setPhase({ kind: 'loading', view });
      const box = boxRef.current?.getBoundingClientRect();
      try {
        started = await Session.start(
          {
            api,
            view,
            frame,
            hostVersion: host.version,
            context: hostContext({
              theme,
              displayMode: modeRef.current,
              width: box?.width ?? 600,
              platform: host.platform,
              hostVersion: host.version,
              ...(view.tool ? { toolInfo: { ...(toolCallId ? { id: toolCallId } : {}), tool: view.tool as never } } : {}),
            }),
            ...(conv ? { conversation: conv } : {}),
            ask,
            onSize: ({ height: h }) => {
              if (typeof h !== 'number' || !Number.isFinite(h)) return;
              setHeight(Math.max(24, Math.min(Math.ceil(h), INLINE_MAX_HEIGHT)));
              if (!painted.current && resultAt.current !== undefined) {
                painted.current = true;
                markOnce('harbor:app-first-paint', { server, toolCallId, sinceResultMs: performance.now() - resultAt.current });
              }
            },
            onDisplayMode: (wanted, appModes) => {
              const allowed = HOST_DISPLAY_MODES.includes(wanted) && (wanted === 'inline' || !appModes || appModes.includes(wanted));
              if (allowed) setMode(wanted);
              return allowed ? wanted : modeRef.current;
            },
            onInitialized: () => setTagged((p) => (p?.opening === opening && p.kind === 'loading' ? { kind: 'ready', view: p.view, opening } : p)),
            onNavigated: () => {
              setPhase({ kind: 'ended', why: 'navigated' });
              void started?.close('the app left its frame', false).then(() => blank(frame, view.sandboxUrl));
            },
            onStopped: (reason) => {
              setPhase({ kind: 'ended', why: 'stopped', reason });
              // Closed on the Host at once either way: what it still waits for (a consent question) goes with it.
              const closing = started ? started.close(`the app was stopped: ${reason}`, false) : api.apps.close({ instanceId: view.instanceId });
              void closing.then(() => blank(frame, view.sandboxUrl));
            },
            onTeardownRequested: () => {
              void started?.close('the app asked to close', true).then(() => {
                blank(frame, view.sandboxUrl);
                setPhase({ kind: 'ended', why: 'closed' });
              });
            },
          },
          new URLSearchParams({ parent: window.location.origin === 'null' ? 'file://' : window.location.origin, scheme: theme }).toString(),
        );
      } catch (error) {
        // The bridge could not connect to the frame: the app is closed again, and the card says why.
        void api.apps.close({ instanceId: view.instanceId });
        if (!disposed) setPhase({ kind: 'error', error: { code: 'INTERNAL', message: `The app's frame could not be connected: ${error instanceof Error ? error.message : String(error)}` } });
        return;
      }
      if (disposed) {
        void started.close('the app was removed', false);
        return;
      }
      setSession(started);
    })();
    // Paused, retried or removed: the app is asked to wind down (briefly awaited while its frame
    // is still there), then its frame is emptied so nothing of it keeps running.
    const frame = frameRef.current;
    return () => {
      disposed = true;
      setSession(undefined);
      if (started) void started.close('the app is no longer shown', true).then(() => blank(frame, sandboxUrl));
    };
    // Reopened only for another app, a retry or after a pause; theme and input reach the open app as updates.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, opening, paused]);

  useEffect(() => {
    if (!session) return;
    if (props.partialInput && !props.input) session.partialInput(props.partialInput);
    if (props.input) session.input(props.input);
  }, [session, props.partialInput, props.input]);

  useEffect(() => {
    if (!session) return;
    if (props.result) {
      resultAt.current ??= performance.now();
      session.result(props.result);
    } else if (props.cancelled) session.cancelled(props.cancelled);
  }, [session, props.result, props.cancelled]);

  // Theme, width and display mode reach the app live (only what changed is sent).
  useEffect(() => {
    if (!session || !info) return;
    const fixed = mode === 'fullscreen' ? { width: window.innerWidth, height: window.innerHeight - TITLE_BAR } : mode === 'pip' ? PIP_SIZE : undefined;
    session.updateContext(
      hostContext({
        theme,
        displayMode: mode,
        width: fixed?.width ?? width,
        ...(fixed ? { height: fixed.height } : {}),
        platform: info.platform,
        hostVersion: info.version,
      }),
    );
  }, [session, info, theme, mode, width]);

  // Full screen and picture-in-picture live in the top layer (see apps.css); inline in the card.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || typeof box.showPopover !== 'function') return;
    const open = box.matches(':popover-open');
    if (mode === 'inline' && open) box.hidePopover();
    else if (mode !== 'inline' && !open) box.showPopover();
  }, [mode]);

  useEffect(() => {
    if (mode !== 'fullscreen') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMode('inline');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode]);

  // Questions still open when the frame goes are answered no.
  useEffect(() => () => setAsked((queue) => (queue.forEach((a) => a.resolve({ allowed: false })), [])), []);

  const question = asked[0];
  const answer = (value: PersonAnswer) => {
    question?.resolve(value);
    setAsked((queue) => queue.slice(1));
  };
  const view = phase.kind === 'loading' || phase.kind === 'ready' ? phase.view : undefined;
  const border = view?.policy.prefersBorder !== false;
  const showing = phase.kind === 'loading' || phase.kind === 'ready';
  // Paused off screen, or opening again, the frame keeps the app's last height: nothing around it jumps.
  const holding = phase.kind === 'opening' || (phase.kind === 'ended' && phase.why === 'paused');
  const label = `App of ${server}${tool ? ` for ${tool}` : ''}`;

  return (
    <div className="app-frame-slot" data-app-state={phase.kind}>
      {mode !== 'inline' && showing ? (
        <p className="app-frame__placeholder muted">
          The app is shown {mode === 'fullscreen' ? 'full screen' : 'in a floating window'}.{' '}
          <button type="button" className="button button--small" onClick={() => setMode('inline')}>
            Show it here
          </button>
        </p>
      ) : null}
      <div
        ref={boxRef}
        className={`app-frame app-frame--${mode}${border ? ' app-frame--border' : ''}`}
        popover="manual"
        role="region"
        aria-label={label}
        // The app's own height, plus the border (sizes here include it): no inner scrollbar, no blank band.
        style={mode === 'inline' && (showing || holding) ? { height: height + (border ? 2 : 0) } : undefined}
        hidden={!showing && !holding}
      >
        {mode !== 'inline' ? (
          <div className="app-frame__bar">
            <span>{label}</span>
            <button type="button" className="button button--small" onClick={() => setMode('inline')}>
              {mode === 'fullscreen' ? 'Exit full screen' : 'Back in the conversation'}
            </button>
          </div>
        ) : null}
        {phase.kind === 'opening' || phase.kind === 'loading' ? (
          <p className="app-frame__loading loading" role="status">
            <span className="loading__dot" aria-hidden="true" /> Loading the {server} app…
          </p>
        ) : null}
        {phase.kind === 'ended' && phase.why === 'paused' ? <p className="app-frame__loading muted">The app is paused while it is off screen.</p> : null}
        <iframe
          ref={frameRef}
          title={label}
          className={`app-frame__frame${phase.kind === 'ready' ? '' : ' app-frame__frame--hidden'}`}
          // The proxy needs its own origin (allow-same-origin) to relay; the app inside gets none.
          sandbox="allow-scripts allow-same-origin allow-forms"
          referrerPolicy="no-referrer"
        />
      </div>
      {phase.kind === 'error' ? (
        <div className="app-frame__error">
          <p className="app-frame__error-lead">The {server} app could not be shown.</p>
          <ErrorMessage error={phase.error} onRetry={() => setAttempt((a) => a + 1)} />
        </div>
      ) : null}
      {phase.kind === 'ended' && phase.why !== 'paused' ? (
        <p className="notice app-frame__ended">
          {phase.why === 'navigated'
            ? `The ${server} app tried to leave its frame for another page, so Harbor closed it.`
            : phase.why === 'stopped'
              ? `This app was stopped: ${phase.reason}.`
              : `The ${server} app closed itself.`}{' '}
          <button type="button" className="button button--small" onClick={() => setAttempt((a) => a + 1)}>
            Show it again
          </button>
        </p>
      ) : null}
      {question && view ? <AppRequestDialog server={server} request={question.request} onAnswer={answer} /> : null}
    </div>
  );
}
