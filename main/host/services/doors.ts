import type { EventName } from '../../../preload/contract';
import type { ChatService } from '../chat/service';
import type { AppService } from './app-service';
import type { BundleService } from './bundle-service';
import type { CallService } from './calls';
import type { CodeService } from './code-service';
import type { ConsentDecisions } from './consent-decisions';
import type { ConnectionDoctor } from './doctor';
import type { HarborLogReader } from './harbor-log-view';
import type { ElicitationService } from './elicitation-service';
import type { GalleryService } from './gallery-service';
import type { ImportService } from './import-service';
import type { SamplingService } from './sampling-service';
import type { ServerLogService } from './server-logs';
import type { SubscriptionService } from './subscription-service';
import type { ExitKind, RedactionExit } from './redaction-exit';
import type { RegistryEditing } from './registry-editing';
import type { SandboxService } from './sandbox-service';
import type { SecretService } from './secret-service';
import type { ServerControl } from './server-control';
import type { ServerSignIn } from './server-sign-in';
import type { SettingsService } from './settings-service';
import type { ToolSearch } from './tool-search';
import type { TaskService } from '../tasks/service';
import type { ServerEventLog } from './server-event-log';
import type { SkillService } from '../skills/skill-service';
import type { ShellDoor } from './shell-door';
import type { TrafficFeed } from './traffic-feed';

/** The services behind the doors, as host.ts composes them. */
export interface DoorServices {
  readonly servers: ServerControl;
  readonly signIn: ServerSignIn;
  readonly registry: RegistryEditing;
  readonly imports: ImportService;
  readonly calls: CallService;
  readonly consent: ConsentDecisions;
  readonly secrets: SecretService;
  readonly settings: SettingsService;
  readonly traffic: TrafficFeed;
  readonly serverEvents: ServerEventLog;
  readonly sampling: SamplingService;
  readonly logs: ServerLogService;
  readonly subscriptions: SubscriptionService;
  readonly apps: AppService;
  readonly tools: ToolSearch;
  readonly sandbox: SandboxService;
  readonly tasks: TaskService;
  readonly bundles: BundleService;
  readonly gallery: GalleryService;
  readonly skills: SkillService;
  readonly doctor: ConnectionDoctor;
  readonly harborLog: HarborLogReader;
  readonly shell: ShellDoor;
}

/**
 * Everything a front door (Electron IPC, browser mode, the CLI) can call on the Host, and how each
 * result leaves it (see RedactionExit for the kinds). A method not listed here is not reachable
 * from outside the Host; every error leaves redacted.
 */
export function openDoors(exit: RedactionExit, s: DoorServices) {
  return {
    servers: exit.door(s.servers, {
      list: 'redact',
      get: 'redact',
      names: 'asWritten', // the keys front doors address servers by
      startAll: 'asWritten', // nothing returned
      start: 'redact',
      stop: 'redact',
      restart: 'redact',
      retryLists: 'redact',
      connect: 'redact',
      approveLaunch: 'redact', // the command line or URL approved
      approveLaunchAndStart: 'redact',
      stderrTail: 'redact',
      launchFailures: 'redact', // messages and stderr quote what servers wrote
    }),
    auth: exit.door(s.signIn, { login: 'redact', logout: 'redact', status: 'asWritten' /* two booleans */ }),
    registry: exit.door(s.registry, {
      // The person's own file, shown for editing and saved back: masking would write *** into it.
      view: 'asWritten',
      requireValid: 'asWritten',
      reload: 'asWritten', // nothing returned
      add: 'redact',
      update: 'redact',
      remove: 'redact',
      saveText: 'asWritten', // problems quote the text the person just sent
      check: 'asWritten', // the same problems, before saving
      setToolEnabled: 'redact',
    }),
    imports: exit.door(s.imports, { sources: 'mask', preview: 'mask', apply: 'mask', run: 'mask' }),
    calls: exit.door(s.calls, {
      callTool: 'mask',
      readResource: 'mask',
      getPrompt: 'mask',
      complete: 'mask',
      catalog: 'mask',
      offeredCatalog: 'mask',
      toolChanges: 'mask',
      instructions: 'mask',
      watchResources: 'mask', // the server's own refusal messages
      cancel: 'asWritten', // a boolean
    }),
    consent: exit.door(s.consent, {
      pendingRequests: 'mask', // tool arguments are the model's words
      respond: 'asWritten', // a boolean
      ask: 'asWritten', // the person's choice
      decisions: 'redact',
      revoke: 'asWritten', // a count
      policies: 'redact',
      setPolicy: 'asWritten', // nothing returned
      approveLaunchesForSession: 'asWritten', // nothing returned
      grantTool: 'asWritten', // nothing returned
    }),
    // Names only: no value ever leaves through this door.
    // Which servers a secret belongs to: secret and server names.
    secrets: exit.door(s.secrets, { list: 'asWritten', overview: 'redact', set: 'asWritten', delete: 'asWritten', grant: 'asWritten', revoke: 'asWritten', owners: 'asWritten' }),
    settings: exit.door(s.settings, { get: 'redact', setModel: 'redact', setChat: 'redact', setToolset: 'redact', chat: 'asWritten', testModel: 'redact' }),
    // The log redacts every entry's text itself (once, when first read): listing it needs no second pass.
    traffic: exit.door(s.traffic, { list: 'asWritten', onEntry: 'asWritten' }),
    // State summaries quote servers' errors, stderr and command lines.
    serverEvents: exit.door(s.serverEvents, { list: 'redact' }),
    // A sampling review carries what the server and the model wrote.
    sampling: exit.door(s.sampling, { pending: 'mask', respond: 'asWritten', approveForThisRun: 'asWritten' }),
    // Log messages and stderr are the server's words.
    logs: exit.door(s.logs, { view: 'mask', setLevel: 'mask' }),
    subscriptions: exit.door(s.subscriptions, { list: 'asWritten', subscribe: 'asWritten', unsubscribe: 'asWritten' }), // URIs the person chose
    apps: exit.door(s.apps, {
      forTool: 'asWritten', // a ui:// address
      open: 'mask', // the server's app document and tool definition
      // The CSP is built from checked sources only, and must reach the sandbox byte for byte.
      sandboxPolicy: 'asWritten',
      attachSandbox: 'asWritten', // a disposable
      callTool: 'mask',
      readResource: 'mask',
      listTools: 'mask',
      listResources: 'mask',
      recordRequest: 'asWritten', // a boolean
      updateModelContext: 'asWritten', // a boolean
      close: 'asWritten', // a boolean
      activity: 'mask', // details quote what apps asked
    }),
    // Tool names and descriptions are what servers wrote.
    tools: exit.door(s.tools, { search: 'mask', rank: 'mask' }),
    // Refusals name paths and hosts a server chose; the status quotes what the sandbox said.
    sandbox: exit.door(s.sandbox, { status: 'redact', sandboxForInstalls: 'asWritten', refusals: 'redact', allow: 'redact', setInstallDefault: 'redact' }),
    // Status messages and results are the server's words.
    tasks: exit.door(s.tasks, { list: 'mask', result: 'mask', refresh: 'mask', cancel: 'asWritten' }),
    // Reviews quote a bundle's manifest; plans hold the registry entry (secrets as references only).
    bundles: exit.door(s.bundles, { openFile: 'mask', upload: 'mask', pending: 'mask', install: 'redact', discard: 'asWritten' }),
    // The checks quote servers' errors, stderr, command lines and paths.
    doctor: exit.door(s.doctor, { diagnose: 'redact', enabledServers: 'asWritten' }),
    // Every line was redacted when it was written; masked again for values learnt since.
    harborLog: exit.door(s.harborLog, { read: 'mask', folder: 'asWritten' /* the data folder's own path */ }),
    gallery: exit.door(s.gallery, { settings: 'asWritten', setSettings: 'asWritten', search: 'mask', install: 'redact', fetchBundle: 'mask', isBundle: 'asWritten' }),
    // Skills are the server's words (names, descriptions, SKILL.md); approvals are URIs and digests.
    skills: exit.door(s.skills, { list: 'mask', files: 'mask', load: 'mask', readFile: 'mask', grant: 'asWritten', revoke: 'asWritten', approvals: 'redact' }),
    // What the desktop shell raises itself (the updater's status): its events leave cleaned by EVENT_EXIT.
    shell: exit.door(s.shell, { emit: 'asWritten' }),
  };
}

/** The chat's doors (and code mode's): opened once the chat exists, which itself calls servers through the doors above. */
export function openChatDoors(exit: RedactionExit, chat: ChatService, elicitation: ElicitationService, code: CodeService) {
  return {
    chat: exit.door(chat, {
      status: 'mask',
      context: 'mask',
      // The turn's ids and its outcome promise; what it says streams as masked chat.* events.
      send: 'asWritten',
      regenerate: 'asWritten',
      stop: 'asWritten', // a boolean
      list: 'mask',
      open: 'mask',
      result: 'mask',
      switchBranch: 'mask',
      rename: 'mask',
      delete: 'asWritten', // a boolean
      export: 'mask',
      setToolset: 'mask',
      offer: 'mask', // tool names are a server's text
    }),
    elicitation: exit.door(elicitation, { pending: 'mask', respond: 'asWritten', respondWith: 'asWritten', whenPageDone: 'asWritten', checkAnswer: 'asWritten' }),
    // Code mode for `harbor exec`: the script's results are the tools' (already through the call door) and its own words.
    code: exit.door(code, { declarations: 'mask', run: 'mask' }),
  };
}

export type HostDoors = ReturnType<typeof openDoors> & ReturnType<typeof openChatDoors>;

/** How each event leaves the Host (a new event cannot be added without deciding). */
export const EVENT_EXIT: Readonly<Record<EventName, ExitKind>> = {
  'app.update': 'asWritten', // the shell's own update status
  'servers.changed': 'redact', // summaries quote servers' errors, stderr and command lines
  'registry.changed': 'redact', // problems in harbor.json: paths and plain words, never a value, but it is the person's file
  'servers.launchFailed': 'redact', // the failure's message and stderr
  'traffic.message': 'asWritten', // redacted by the traffic log
  'serverEvents.entry': 'redact', // a servers.changed event, kept
  'auth.open': 'asWritten', // the sign-in page the person must open, exactly as it is
  'elicitation.request': 'mask',
  'elicitation.resolved': 'asWritten',
  'servers.log': 'mask', // the server's own words
  'sampling.request': 'mask', // the server's prompt and the model's answer
  'sampling.resolved': 'asWritten',
  'sampling.exchange': 'redact', // Harbor's words about it, quoting failures
  'consent.request': 'mask',
  'consent.resolved': 'asWritten',
  'consent.changed': 'asWritten',
  'chat.delta': 'mask',
  'chat.toolCall': 'mask',
  'chat.toolInput': 'mask', // the model's words
  'chat.missing': 'redact', // Harbor's words, quoting servers' errors and stderr
  'chat.done': 'mask',
  'sandbox.refused': 'redact', // a path or host a server chose
  'tasks.changed': 'mask',
  'apps.activity': 'mask', // details quote what apps asked
  'bundles.opened': 'mask',
};
