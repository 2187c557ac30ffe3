/**
 * Every `harbor` command as help, suggestions and argument parsing need it: name, summary, usage,
 * flags and the number of arguments. What a command does lives in subcommands/ and is imported
 * only when that command runs, so starting the CLI costs the same whatever the commands need.
 */
import { DEFAULT_TOOL_SEARCH_LIMIT } from '../host/tools/search';
import type { CliCommand } from './command';
import { SAMPLING_OPTIONS } from './sampling-notes';
import { CONSENT_USAGE, GALLERY_USAGE, SECRET_USAGE } from './usage';

/** `--answer JSON` and `--open`, for the commands during which a server may ask the person (elicitation). */
export const ANSWER_OPTIONS = { answer: { type: 'string' }, open: { type: 'boolean' } } as const;

const YES = { yes: { type: 'boolean' } } as const;
/** Variables that make a runtime load or fetch code (NODE_OPTIONS, LD_PRELOAD…), allowed by name: repeatable, or comma-separated. */
const ALLOW_ENV = { 'allow-env': { type: 'string', multiple: true }, 'allow-lookalike': { type: 'boolean' } } as const;

/** In the order `harbor --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'servers',
    summary: 'Connect every enabled server (or only those named) in parallel and print one line per server',
    usage: 'servers [NAME...] [--yes]',
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    options: { ...YES },
    load: async () => (await import('./subcommands/servers')).serversCommand,
  },
  {
    name: 'doctor',
    summary: 'Check each enabled server (or the one named) step by step: entry, command or address, consent, secrets, sign-in, handshake, catalog, sandbox',
    usage: 'doctor [SERVER]',
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./subcommands/doctor')).doctorCommand,
  },
  {
    name: 'tools',
    summary: `List the tools of one server, or of every enabled server; --search ranks them for a query, best first (--limit, default ${DEFAULT_TOOL_SEARCH_LIMIT})`,
    usage: 'tools [SERVER] [--search QUERY [--limit N]] [--toolset NAME] [--yes]',
    options: { ...YES, search: { type: 'string' }, limit: { type: 'string' }, toolset: { type: 'string' } },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./subcommands/catalog')).toolsCommand,
  },
  {
    name: 'skills',
    summary: 'List the skills of one server, or of every enabled server (the Skills extension); reads none of their files',
    usage: 'skills [SERVER] [--yes]',
    options: { ...YES },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./subcommands/skills')).skillsCommand,
  },
  {
    name: 'resources',
    summary: 'List the resources and resource templates of a server',
    usage: 'resources SERVER [--yes]',
    options: { ...YES },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/catalog')).resourcesCommand,
  },
  {
    name: 'prompts',
    summary: 'List the prompts of a server',
    usage: 'prompts SERVER [--yes]',
    options: { ...YES },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/catalog')).promptsCommand,
  },
  {
    name: 'call',
    summary: 'Call a tool and print its result',
    usage: 'call SERVER TOOL [--args JSON] [--answer JSON] [--open] [--yes] [--allow-sampling] [--timeout MS]',
    positionals: { min: 2, max: 2 },
    options: { args: { type: 'string' }, ...ANSWER_OPTIONS, ...SAMPLING_OPTIONS, ...YES, timeout: { type: 'string' } },
    load: async () => (await import('./subcommands/call')).callCommand,
  },
  {
    name: 'exec',
    longLived: true,
    summary: "Run a JavaScript program against the servers' tools in a sandbox (each call asks consent)",
    usage: 'exec [FILE | -] [--yes] [--timeout MS] [--types] [--toolset NAME] [--start-all]',
    positionals: { min: 0, max: 1 },
    options: {
      ...YES,
      toolset: { type: 'string' },
      timeout: { type: 'string' },
      memory: { type: 'string' },
      'max-calls': { type: 'string' },
      'max-output': { type: 'string' },
      ...ANSWER_OPTIONS,
      types: { type: 'boolean' },
      'start-all': { type: 'boolean' },
    },
    load: async () => (await import('./subcommands/exec')).execCommand,
  },
  {
    name: 'tasks',
    summary: 'List the tasks servers ran for tool calls (status, message, elapsed); --refresh asks SERVER first',
    usage: 'tasks [SERVER] [--refresh] [--yes]',
    positionals: { min: 0, max: 1 },
    options: { refresh: { type: 'boolean' }, ...YES },
    load: async () => (await import('./subcommands/tasks')).tasksCommand,
  },
  {
    name: 'chat',
    longLived: true,
    summary: "Send one message to the model and let it use the servers' tools (one turn)",
    usage: 'chat [--conversation ID] [--toolset NAME] [--yes] [--answer JSON] [--open] [--start-all] MESSAGE',
    positionals: { min: 1, max: 1 },
    options: { conversation: { type: 'string' }, toolset: { type: 'string' }, ...YES, ...ANSWER_OPTIONS, 'start-all': { type: 'boolean' } },
    load: async () => (await import('./subcommands/chat')).chatCommand,
  },
  {
    name: 'read',
    summary: 'Read a resource',
    usage: 'read SERVER URI [--answer JSON] [--open] [--yes] [--allow-sampling]',
    options: { ...YES, ...ANSWER_OPTIONS, ...SAMPLING_OPTIONS },
    positionals: { min: 2, max: 2 },
    load: async () => (await import('./subcommands/read')).readCommand,
  },
  {
    name: 'prompt',
    summary: 'Get a prompt, filled with arguments',
    usage: 'prompt SERVER NAME [--args JSON] [--answer JSON] [--open] [--yes] [--allow-sampling]',
    positionals: { min: 2, max: 2 },
    options: { args: { type: 'string' }, ...YES, ...ANSWER_OPTIONS, ...SAMPLING_OPTIONS },
    load: async () => (await import('./subcommands/read')).promptCommand,
  },
  {
    name: 'watch',
    longLived: true,
    summary: 'Hold the subscription and print each change and log message as a JSON line',
    usage: 'watch SERVER [--resource URI]... [--call TOOL [--args JSON]] [--seconds N] [--yes] [--allow-sampling]',
    positionals: { min: 1, max: 1 },
    options: {
      seconds: { type: 'string' },
      ...YES,
      resource: { type: 'string', multiple: true },
      call: { type: 'string' },
      args: { type: 'string' },
      ...SAMPLING_OPTIONS,
    },
    load: async () => (await import('./subcommands/watch')).watchCommand,
  },
  {
    name: 'consent',
    summary: 'List, grant or revoke tool, launch and skill approvals',
    usage: CONSENT_USAGE,
    positionals: { min: 1, max: 3 },
    // --yes: grant-skill launches the server to read the skill's entry.
    options: { always: { type: 'boolean' }, ...YES },
    load: async () => (await import('./subcommands/consent')).consentCommand,
  },
  {
    name: 'import',
    summary: 'Import servers from a Claude Desktop, VS Code or Cursor config file (never overwrites)',
    usage: 'import FILE [--only NAME[,NAME…]] [--rename] [--dry-run] [--set ID=VALUE]… [--allow-env NAME[,NAME…]] [--allow-lookalike]',
    options: { only: { type: 'string', multiple: true }, rename: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, set: { type: 'string', multiple: true }, ...ALLOW_ENV },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/import')).importCommand,
  },
  {
    name: 'install',
    summary: 'Install an MCP bundle (.mcpb): settings with --set KEY=VALUE, --yes approves launching the command shown',
    usage: 'install FILE.mcpb [--name NAME] [--set KEY=VALUE]... [--allow-env NAME[,NAME…]] [--allow-lookalike] [--yes] [--dry-run]',
    options: { name: { type: 'string' }, set: { type: 'string', multiple: true }, ...ALLOW_ENV, ...YES, 'dry-run': { type: 'boolean' } },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/install')).installCommand,
  },
  {
    name: 'gallery',
    summary: 'Search the MCP Registry and install servers from it',
    usage: GALLERY_USAGE,
    options: {
      registry: { type: 'string' },
      cursor: { type: 'string' },
      limit: { type: 'string' },
      version: { type: 'string' },
      set: { type: 'string', multiple: true },
      name: { type: 'string' },
      option: { type: 'string' },
      ...ALLOW_ENV,
      ...YES,
      'dry-run': { type: 'boolean' },
    },
    positionals: { min: 1, max: 2 },
    load: async () => (await import('./subcommands/gallery')).galleryCommand,
  },
  {
    name: 'secret',
    summary: 'Keep secrets in the OS keychain: set NAME (value from stdin), list, delete NAME, grant|revoke NAME SERVER',
    usage: SECRET_USAGE,
    positionals: { min: 1, max: 3 },
    load: async () => (await import('./subcommands/secret')).secretCommand,
  },
  {
    name: 'login',
    summary: 'Sign in to a remote server (OAuth): prints the sign-in URL, waits for the browser, keeps the tokens in the keychain',
    usage: 'login SERVER [--open]',
    options: { open: { type: 'boolean' } },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/auth')).loginCommand,
  },
  {
    name: 'logout',
    summary: "Forget a remote server's sign-in: its tokens and client registration leave the keychain",
    usage: 'logout SERVER',
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./subcommands/auth')).logoutCommand,
  },
  {
    name: 'info',
    summary: 'Show the version, the registry file in use and any problems in it',
    usage: 'info',
    load: async () => (await import('./subcommands/info')).infoCommand,
  },
  {
    name: 'logs',
    summary: "Print Harbor's own log (DATA/logs/harbor.log): what went wrong, where, and when",
    usage: 'logs [--server NAME] [--level debug|info|warn|error] [--since DURATION] [--follow]',
    positionals: { min: 0, max: 0 },
    options: { server: { type: 'string' }, level: { type: 'string' }, since: { type: 'string' }, follow: { type: 'boolean' } },
    load: async () => (await import('./subcommands/logs')).logsCommand,
  },
  {
    name: 'web',
    longLived: true,
    summary: 'Serve the app to a browser on 127.0.0.1 (prints the URL to open as one JSON line)',
    usage: 'web [--port N] [--no-autostart]',
    options: { port: { type: 'string' }, 'no-autostart': { type: 'boolean' } },
    load: async () => (await import('./subcommands/web')).webCommand,
  },
];
