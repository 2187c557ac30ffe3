/**
 * THE contract between the renderer and the main process.
 *
 * Every command is `{ request, response }` (zod), every event a zod payload; the types come from
 * `z.infer`. Main validates every incoming payload against these schemas (main/dispatch.ts), the
 * preload and the browser-mode bridge both build `window.harbor` from it with `buildApi`, so the
 * renderer never spells a channel string. The folder is pure (zod and its own files only): main,
 * preload and renderer all import it through this index.
 *
 * errors        error codes, HarborErrorData, Result
 * shared        connection state, server summary, app info, update status
 * secrets       secret names
 * names         server and environment variable naming rules
 * consent       consent requests, decisions, policy modes
 * chat          conversations, turns, tool calls, chat status and context
 * chat-files    files attached to a message: limits, kinds, uploads
 * code          code mode: a script run, its calls, logs and result
 * registry      the registry as edited, import sources and reports
 * server-views  catalog, traffic, elicitation requests
 * client-features  sampling reviews, server log messages, resource subscriptions
 * settings      model and chat settings
 * apps          MCP Apps: an app's view and policy, its requests, its audit trail
 * app-limits    what one MCP App may send through its bridge: rate, size, requests waiting
 * sandbox       the sandbox servers run in: availability, refusals, the install setting
 * tasks         tasks a server runs for a tool call, their commands and event
 * installs      bundles (.mcpb) and the MCP Registry gallery
 * commands      every command's request and response
 * events        every event's payload
 * api           transports, envelopes, buildApi (window.harbor)
 */
export * from './errors';
export * from './shared';
export * from './secrets';
export * from './names';
export * from './consent';
export * from './chat';
export * from './chat-files';
export * from './code';
export * from './registry';
export * from './server-views';
export * from './client-features';
export * from './settings';
export * from './apps';
export * from './app-limits';
export * from './sandbox';
export * from './doctor';
export * from './skills';
export * from './harbor-log';
export * from './tasks';
export * from './installs';
export * from './commands';
export * from './events';
export * from './api';
