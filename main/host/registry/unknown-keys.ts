import { InstallsConfig } from './install-fields';
import { OAuthConfig } from './oauth-config';
import { SandboxRules } from './sandbox-config';
import { ChatConfig, ModelConfig, RegistryFile, RemoteServerConfig, StdioServerConfig } from './schema';

/**
 * Keys Harbor does not know are kept (another app's fields, the person's notes), but one that is
 * nearly a key Harbor knows is almost always a typo that silently does nothing — `"baseUrl"` for
 * `"baseURL"`. Each such key, anywhere in the file, gets one line:
 * `model.baseUrl: unknown field; did you mean "baseURL"?`.
 */
export function unknownKeyHints(file: unknown): string[] {
  const out: string[] = [];
  if (!isObject(file)) return out;
  check(file, RegistryFile.shape, '', out);
  checkModels(file.model, 'model', out);
  if (isObject(file.chat)) {
    check(file.chat, ChatConfig.shape, 'chat', out);
    if (isObject(file.chat.codeLimits)) check(file.chat.codeLimits, ChatConfig.shape.codeLimits.unwrap().shape, 'chat.codeLimits', out);
  }
  if (isObject(file.installs)) check(file.installs, InstallsConfig.shape, 'installs', out);
  if (isObject(file.mcpServers)) {
    for (const [name, server] of Object.entries(file.mcpServers)) {
      if (!isObject(server)) continue;
      const path = `mcpServers${/^[A-Za-z_$][\w$-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}`;
      const known = 'url' in server && !('command' in server) ? RemoteServerConfig.shape : StdioServerConfig.shape;
      check(server, known, path, out);
      checkModels(server.samplingModel, `${path}.samplingModel`, out);
      if (isObject(server.sandbox)) check(server.sandbox, SandboxRules.shape, `${path}.sandbox`, out);
      if (isObject(server.oauth)) check(server.oauth, OAuthConfig.shape, `${path}.oauth`, out);
    }
  }
  return out;
}

function checkModels(value: unknown, path: string, out: string[]): void {
  if (Array.isArray(value)) value.forEach((model, i) => isObject(model) && check(model, ModelConfig.shape, `${path}[${i}]`, out));
  else if (isObject(value)) check(value, ModelConfig.shape, path, out);
}

function check(value: Record<string, unknown>, shape: object, path: string, out: string[]): void {
  const known = Object.keys(shape);
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = nearest(key, known);
    if (near) out.push(`${path ? `${path}.` : ''}${key}: unknown field; did you mean "${near}"?`);
  }
}

/** The known key this one is a slip of: the same but for case, or one or two letters off. */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  if (key.length < 3) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= (key.length >= 8 ? 2 : 1) && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
