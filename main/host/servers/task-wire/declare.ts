import { CLIENT_CAPABILITIES_META, TASKS_EXTENSION, isPlainObject } from './shapes';
import { paramsOf, type WireRequest } from './messages';

/**
 * Declares tasks the way each era asks, on the wire (the SDK's one capabilities object cannot
 * say it era by era):
 * - a modern request carries the Tasks extension in its own `clientCapabilities` (`_meta`), so a
 *   server may answer a tool call with a task, and knows Harbor may ask about tasks;
 * - the legacy `initialize` carries the 2025-11-25 `tasks` capability: `tasks/list` and
 *   `tasks/cancel` for the tasks a server asks Harbor to run, and the requests it may ask to run
 *   as tasks — only those Harbor declares at all (elicitation; sampling where it is offered).
 */
export function declareTasks(request: WireRequest): WireRequest {
  const params = paramsOf(request);
  if (request.method === 'initialize' && isPlainObject(params.capabilities)) {
    const capabilities = params.capabilities;
    const requests = {
      ...(isPlainObject(capabilities.elicitation) ? { elicitation: { create: {} } } : {}),
      ...(isPlainObject(capabilities.sampling) ? { sampling: { createMessage: {} } } : {}),
    };
    const tasks = { list: {}, cancel: {}, ...(Object.keys(requests).length > 0 ? { requests } : {}) };
    return { ...request, params: { ...params, capabilities: { ...capabilities, tasks } } };
  }
  const meta = isPlainObject(params._meta) ? params._meta : undefined;
  const declared = meta?.[CLIENT_CAPABILITIES_META];
  if (!meta || !isPlainObject(declared)) return request;
  return { ...request, params: { ...params, _meta: { ...meta, [CLIENT_CAPABILITIES_META]: withTasks(declared) } } };
}

/**
 * The declared capabilities with the Tasks extension, made once per declared object: the SDK
 * puts its one capabilities object in every modern request's `_meta` (and replaces it, never
 * changes it, when capabilities are added), so each request needs no copies of its own.
 */
const withTasksOf = new WeakMap<Record<string, unknown>, Record<string, unknown>>();

function withTasks(declared: Record<string, unknown>): Record<string, unknown> {
  let extended = withTasksOf.get(declared);
  if (!extended) {
    const extensions = isPlainObject(declared.extensions) ? declared.extensions : {};
    withTasksOf.set(declared, (extended = { ...declared, extensions: { ...extensions, [TASKS_EXTENSION]: {} } }));
  }
  return extended;
}
