/**
 * The JavaScript that sets up a script's world inside QuickJS, evaluated before the script. It
 * gets the host's four functions as arguments — they never become globals, so the script can
 * reach them only through what is built here — and installs `tools`, `console`, `setTimeout` and
 * `clearTimeout`. It returns `settle(promise)`, which reports how the script's main promise ended,
 * in plain values (never an object the script's prototypes could rewrite on its way out).
 * Everything it relies on (JSON, Promise.prototype.then, …) is captured before the script runs, so
 * a script that replaces those globals only breaks itself.
 *
 * Kept as a string, not a function's source: the worker evaluates it unbuilt.
 */
export const VM_PRELUDE = String.raw`(function install(hostCall, hostLog, hostSleep, hostDone, apiJson) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const then = Promise.prototype.then;
  const freeze = Object.freeze;
  const keys = Object.keys;
  const hasOwn = Object.prototype.hasOwnProperty;
  const defineProperty = Object.defineProperty;
  const isArray = Array.isArray;
  const api = parse(apiJson);

  const quote = (name) => stringify(String(name));
  const format = (value) => {
    if (typeof value === 'string') return value;
    try {
      if (value instanceof Error) return String(value.name) + ': ' + String(value.message);
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      try {
        return String(value);
      } catch (again) {
        return '(a value that cannot be shown)';
      }
    }
  };

  const toolFunction = (server, tool) =>
    async function (args) {
      if (args === undefined || args === null) args = {};
      if (typeof args !== 'object' || isArray(args)) {
        throw new TypeError('tools[' + quote(server) + '][' + quote(tool) + '] takes one object of arguments, e.g. ({ id: 1 })');
      }
      const answer = parse(await hostCall(server, tool, stringify(args)));
      if (answer.ok) return answer.value;
      const error = new Error(answer.message);
      error.name = answer.code === 'TOOL_ERROR' ? 'ToolError' : 'ToolCallError';
      error.code = answer.code;
      error.server = server;
      error.tool = tool;
      defineProperty(error, 'harborCallToken', { value: answer.token, enumerable: false });
      throw error;
    };

  // A missing server or tool is a clear error naming what exists, not "undefined is not a function".
  const strict = (target, what, known) =>
    new Proxy(freeze(target), {
      get(object, key) {
        if (typeof key !== 'string' || hasOwn.call(object, key) || key === 'then' || key === 'toJSON') return object[key];
        throw new TypeError(what(key) + ' Available: ' + (known.length ? known.join(', ') : '(none)') + '.');
      },
    });
  const servers = {};
  for (const server of keys(api)) {
    const functions = {};
    for (const tool of api[server]) functions[tool] = toolFunction(server, tool);
    servers[server] = strict(functions, (key) => 'The server ' + quote(server) + ' has no tool ' + quote(key) + '.', api[server]);
  }
  defineProperty(globalThis, 'tools', {
    value: strict(servers, (key) => 'There is no server ' + quote(key) + ' in tools.', keys(api)),
    enumerable: false,
  });

  const console = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    console[level] = (...values) => {
      hostLog(level, values.map(format).join(' '));
    };
  }
  globalThis.console = freeze(console);

  let nextTimer = 1;
  const cleared = new Set();
  globalThis.setTimeout = (callback, ms, ...values) => {
    if (typeof callback !== 'function') throw new TypeError('setTimeout takes a function (text is not run as code)');
    const id = nextTimer++;
    then.call(hostSleep(Number(ms) || 0), () => {
      if (cleared.delete(id)) return;
      try {
        callback(...values);
      } catch (error) {
        hostLog('error', 'Uncaught in a setTimeout callback: ' + format(error));
      }
    });
    return id;
  };
  globalThis.clearTimeout = (id) => {
    if (typeof id === 'number' && id > 0 && id < nextTimer) cleared.add(id);
  };

  // What the script left behind (getters, toString) is read once, and a throw there is not the report's.
  const read = (get, fallback) => {
    try {
      return get();
    } catch (error) {
      return fallback;
    }
  };
  const lineOf = (error) => {
    const stack = read(() => error.stack, undefined);
    const match = typeof stack === 'string' ? /script\.js:(\d+)/.exec(stack) : null;
    return match ? Number(match[1]) : undefined;
  };
  const tokenOf = (error) => {
    const token = read(() => error.harborCallToken, undefined);
    return typeof token === 'string' ? token : undefined;
  };
  // The report of how the script ended is never an object: hostDone takes plain values, so nothing
  // the script changed (Object.prototype.toJSON, getters) can rewrite it on its way out.
  return function settle(promise) {
    then.call(
      promise,
      (value) => {
        if (value === undefined) return hostDone(true);
        let json;
        try {
          json = stringify(value);
        } catch (error) {
          return hostDone(false, undefined, 'TypeError', 'The script returned a value that cannot be turned into JSON: ' + format(error));
        }
        hostDone(true, typeof json === 'string' ? json : undefined);
      },
      (error) => {
        // QuickJS throws null when it runs out of memory while building its out-of-memory error.
        if (error === null) return hostDone(false, undefined, 'InternalError', 'out of memory');
        const isError = error instanceof Error;
        hostDone(
          false,
          undefined,
          isError ? read(() => String(error.name), 'Error') : 'Error',
          isError ? read(() => String(error.message), '') : format(error),
          isError ? lineOf(error) : undefined,
          isError ? tokenOf(error) : undefined,
        );
      },
    );
  };
})`;
