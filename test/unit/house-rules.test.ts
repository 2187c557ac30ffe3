/**
 * Proves each house rule in eslint.config.js still fires (docs/architecture.md §4): a rule that
 * silently stopped matching would let the layering rot while `npm run lint` stays green.
 *
 * Probe code is linted with the real config under the path of a real file in each folder
 * (`lintText` with that `filePath`): the rules are chosen by path, and the type-aware parser
 * needs a file its tsconfig already knows. Nothing is written to disk, so other work in the same
 * tree never sees a probe.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');

/** A real file in `dir` (relative to the repo) whose name ends with `ext`, e.g. main/host/*.ts. */
function realFileIn(dir: string, ext: string): string {
  const name = readdirSync(join(repoRoot, dir))
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`))
    .sort()[0];
  if (!name) throw new Error(`house-rules test needs one existing ${ext} file in ${dir}/ to lint probes as`);
  return `${dir}/${name}`;
}

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: repoRoot,
    // typescript-eslint infers a "single run" when CI=true and then builds its program from the
    // files on disk, ignoring the text given to lintText: every probe would lint the real file.
    overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
  });
});

async function lint(code: string, filePath: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  const messages = result?.messages ?? [];
  // A parse failure would make every "rule fires" assertion meaningless: fail loudly instead.
  const fatal = messages.filter((m) => m.fatal);
  expect(fatal.map((m) => m.message), `probe in ${filePath} did not parse`).toEqual([]);
  return messages;
}

/** Rules that reported an error (severity 2: what fails `npm run lint`). */
const rulesFired = (messages: Linter.LintMessage[]) => messages.filter((m) => m.severity === 2).map((m) => m.ruleId);

const IMPORT_ELECTRON = "import { app } from 'electron';\nexport const probe = app;\n";

describe('house rules (eslint.config.js)', { timeout: 180_000 }, () => {
  it('main/host/** never imports electron', async () => {
    expect(rulesFired(await lint(IMPORT_ELECTRON, realFileIn('main/host', '.ts')))).toContain('no-restricted-imports');
  });

  it('main/cli/** never imports electron', async () => {
    expect(rulesFired(await lint(IMPORT_ELECTRON, realFileIn('main/cli', '.ts')))).toContain('no-restricted-imports');
  });

  it('main/host/** never imports the renderer or the preload script', async () => {
    const code = "import * as r from '../../renderer/src/app';\nimport * as p from '../../preload/index';\nexport const probe = [r, p];\n";
    const messages = await lint(code, realFileIn('main/host', '.ts'));
    expect(rulesFired(messages).filter((r) => r === 'no-restricted-imports')).toHaveLength(2);
  });

  it('the Electron shell (main/window.ts) may import electron', async () => {
    expect(rulesFired(await lint(IMPORT_ELECTRON, 'main/window.ts'))).not.toContain('no-restricted-imports');
  });

  it.each([
    ['node:fs', "import fs from 'node:fs';\nexport const probe = fs;\n"],
    ['fs', "import 'fs';\n"],
    ['main/**', "import { Host } from '../../main/host/host';\nexport const probe = Host;\n"],
    ['electron', "import { ipcRenderer } from 'electron';\nexport const probe = ipcRenderer;\n"],
  ])('renderer/** never imports %s', async (_label, code) => {
    expect(rulesFired(await lint(code, realFileIn('renderer/src', '.tsx')))).toContain('no-restricted-imports');
  });

  it('the renderer may import types and schemas from preload/contract', async () => {
    const code = "import { AppInfo } from '../../preload/contract';\nexport const probe = AppInfo;\n";
    expect(rulesFired(await lint(code, realFileIn('renderer/src', '.tsx')))).not.toContain('no-restricted-imports');
  });

  it('preload/index.ts imports only electron and ./contract', async () => {
    const zod = await lint("import { z } from 'zod';\nexport const probe = z;\n", 'preload/index.ts');
    expect(rulesFired(zod)).toContain('no-restricted-imports');
    const nodeFs = await lint("import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n", 'preload/index.ts');
    expect(rulesFired(nodeFs)).toContain('no-restricted-imports');
    const allowed = await lint(
      "import { contextBridge } from 'electron';\nimport { buildApi } from './contract';\nexport const probe = [contextBridge, buildApi];\n",
      'preload/index.ts',
    );
    expect(rulesFired(allowed)).not.toContain('no-restricted-imports');
  });

  it.each([
    ['node:fs', "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n"],
    ['electron', "import { ipcRenderer } from 'electron';\nexport const probe = ipcRenderer;\n"],
    ['main/**', "import { HarborError } from '../../main/host/errors';\nexport const probe = HarborError;\n"],
    ['a file outside its folder', "import * as preload from '../index';\nexport const probe = preload;\n"],
  ])('preload/contract/** never imports %s', async (_label, code) => {
    expect(rulesFired(await lint(code, realFileIn('preload/contract', '.ts')))).toContain('no-restricted-imports');
  });

  it('preload/contract/** may import zod and its own files', async () => {
    const code = "import { z } from 'zod';\nimport { ERROR_CODES } from './errors';\nexport const probe = [z, ERROR_CODES];\n";
    expect(rulesFired(await lint(code, realFileIn('preload/contract', '.ts')))).not.toContain('no-restricted-imports');
  });

  describe('host layering: inside main/host a folder imports only from itself and the folders to its left', () => {
    const layeringErrors = (messages: Linter.LintMessage[]) => messages.filter((m) => m.ruleId === 'harbor/host-layering' && m.severity === 2);

    it.each([
      ['a folder imports one to its right', realFileIn('main/host/registry', '.ts'), "import { ServerManager } from '../servers/manager';\nexport const probe = ServerManager;\n"],
      ['a type-only import to the right (servers never imports auth)', realFileIn('main/host/servers', '.ts'), "import type { OAuthSession } from '../auth/session';\nexport type Probe = OAuthSession;\n"],
      ['a re-export from the right', realFileIn('main/host/consent', '.ts'), "export { CallService } from '../services/calls';\n"],
      ['export * from the right', realFileIn('main/host/tools', '.ts'), "export * from '../chat/service';\n"],
      ['an import() type from the right', realFileIn('main/host/secrets', '.ts'), "export type Probe = import('../auth/session').OAuthSession;\n"],
      ['a dynamic import to the right', realFileIn('main/host/registry', '.ts'), "export const probe = () => import('../import/run-import');\n"],
      ['a base (root) file imports a folder', realFileIn('main/host', '.ts'), "import type { ServerConfig } from './registry/schema';\nexport type Probe = ServerConfig;\n"],
      ['a nested folder reaches to the right', realFileIn('main/host/chat/conversations', '.ts'), "import type { CallService } from '../../services/calls';\nexport type Probe = CallService;\n"],
      ['chat imports host.ts', realFileIn('main/host/chat', '.ts'), "import type { Host } from '../host';\nexport type Probe = Host;\n"],
      ['services import host.ts', realFileIn('main/host/services', '.ts'), "import type { Host } from '../host';\nexport type Probe = Host;\n"],
      ['code-mode never imports the chat that uses it', realFileIn('main/host/code-mode', '.ts'), "import type { TurnCode } from '../chat/turn-code';\nexport type Probe = TurnCode;\n"],
      ['a folder that has no place in the layers', realFileIn('main/host/chat', '.ts'), "import { probe as p } from '../plugins/probe';\nexport const probe = p;\n"],
    ])('fires: %s', async (_label, file, code) => {
      const errors = layeringErrors(await lint(code, file));
      expect(errors).toHaveLength(1);
      // The message names the rule and the allowed direction.
      expect(errors[0]!.message).toContain('House rule (host layering)');
      expect(errors[0]!.message).toContain('base ← log ← registry ← sandbox ← servers ← tasks ← secrets ← auth ← consent ← skills ← apps ← tools ← code-mode ← chat ← sampling ← import ← installs ← bundles ← gallery ← services ← host.ts');
    });

    it.each([
      [
        'servers imports registry, base and its own folder',
        realFileIn('main/host/servers', '.ts'),
        "import type { ServerConfig } from '../registry/schema';\nimport { HarborError } from '../errors';\nimport type { TransportAuth } from './transport-auth';\nexport const probe = HarborError;\nexport type Probe = [ServerConfig, TransportAuth];\n",
      ],
      ['auth implements the servers port', realFileIn('main/host/auth', '.ts'), "import type { TransportAuth } from '../servers/transport-auth';\nexport type Probe = TransportAuth;\n"],
      [
        'chat imports tools, consent, secrets and servers',
        realFileIn('main/host/chat', '.ts'),
        "import { ToolIndex } from '../tools/tool-index';\nimport { ConsentGate } from '../consent/gate';\nimport { Redactor } from '../secrets/redactor';\nimport { ServerManager } from '../servers/manager';\nexport const probe = [ToolIndex, ConsentGate, Redactor, ServerManager];\n",
      ],
      [
        'chat imports code-mode',
        realFileIn('main/host/chat', '.ts'),
        "import { CodeSandbox } from '../code-mode/sandbox';\nexport const probe = CodeSandbox;\n",
      ],
      ['code-mode imports tools and base', realFileIn('main/host/code-mode', '.ts'), "import type { ToolIndex } from '../tools/tool-index';\nimport { HarborError } from '../errors';\nexport const probe = HarborError;\nexport type Probe = ToolIndex;\n"],
      [
        'a nested folder imports its own folder and base',
        realFileIn('main/host/chat/conversations', '.ts'),
        "import type { ChatService } from '../service';\nimport { HarborError } from '../../errors';\nexport const probe = HarborError;\nexport type Probe = ChatService;\n",
      ],
      [
        'services import every folder',
        realFileIn('main/host/services', '.ts'),
        "import { runImport } from '../import/run-import';\nimport { ChatService } from '../chat/service';\nimport { parseRegistryFile } from '../registry/schema';\nexport const probe = [runImport, ChatService, parseRegistryFile];\n",
      ],
      ['host.ts imports services and folders', 'main/host/host.ts', "import { CallService } from './services/calls';\nimport { ChatService } from './chat/service';\nexport const probe = [CallService, ChatService];\n"],
      ['a base file imports another base file and packages', realFileIn('main/host', '.ts'), "import { z } from 'zod';\nimport { HarborError } from './errors';\nexport const probe = [z, HarborError];\n"],
    ])('allows: %s', async (_label, file, code) => {
      expect(layeringErrors(await lint(code, file))).toEqual([]);
    });
  });

  describe('one door: the CLI, the shell, browser mode and the IPC handlers reach the Host through its doors only', () => {
    const doorErrors = (messages: Linter.LintMessage[]) => messages.filter((m) => m.ruleId === 'harbor/front-door' && m.severity === 2);

    it.each([
      ['the CLI builds a code sandbox of its own', realFileIn('main/cli/subcommands', '.ts'), "import { CodeSandbox } from '../../host/code-mode/sandbox';\nexport const probe = new CodeSandbox();\n"],
      ['the shell builds an event bus to emit on', realFileIn('main/shell', '.ts'), "import { HostEvents } from '../host/events';\nexport const probe = new HostEvents();\n"],
      ['browser mode takes a service past its door', realFileIn('main/web', '.ts'), "import { CallService } from '../host/services/calls';\nexport const probe = CallService;\n"],
      ['the IPC handlers reach the consent gate', 'main/contract-handlers.ts', "import { ConsentGate } from './host/consent/gate';\nexport const probe = ConsentGate;\n"],
      ['the IPC binding loads a service lazily', 'main/ipc.ts', "export const probe = () => import('./host/services/calls');\n"],
      ['the app re-exports a server connection', 'main/index.ts', "export { ServerConnection } from './host/servers/connection';\n"],
    ])('fires: %s', async (_label, file, code) => {
      const errors = doorErrors(await lint(code, file));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toContain('House rule (one door)');
    });

    it.each([
      ['the Host, its errors and lifecycle', realFileIn('main/cli', '.ts'), "import { Host } from '../host/host';\nimport { HarborError } from '../host/errors';\nimport { toDisposable } from '../host/lifecycle';\nexport const probe = [Host, HarborError, toDisposable];\n"],
      ['types of what the doors return', realFileIn('main/cli/subcommands', '.ts'), "import type { UnavailableServer } from '../../host/services/code-service';\nimport { type HostEventStream } from '../../host/events';\nexport type Probe = [UnavailableServer, HostEventStream];\n"],
      ['pure helpers', realFileIn('main/shell', '.ts'), "import { resolveLaunch } from '../host/servers/launch';\nexport const probe = resolveLaunch;\n"],
    ])('allows: %s', async (_label, file, code) => {
      expect(doorErrors(await lint(code, file))).toEqual([]);
    });

    it('inside the Host the same imports are allowed', async () => {
      expect(doorErrors(await lint("import { CodeSandbox } from '../code-mode/sandbox';\nexport const probe = CodeSandbox;\n", realFileIn('main/host/services', '.ts')))).toEqual([]);
    });
  });

  describe('no import cycles', () => {
    const cycleErrors = (messages: Linter.LintMessage[]) => messages.filter((m) => m.ruleId === 'harbor/no-import-cycle' && m.severity === 2);

    it.each([
      ['a command imports the table that loads it', 'main/cli/subcommands/consent.ts', "import { ANSWER_OPTIONS } from '../commands';\nexport const probe = ANSWER_OPTIONS;\n"],
      ['a form helper imports the field that uses it', 'renderer/src/ui/schema-form/rjsf/hints.ts', "import { NOT_JSON } from './JsonField';\nexport const probe = NOT_JSON;\n"],
    ])('fires: %s', async (_label, file, code) => {
      const errors = cycleErrors(await lint(code, file));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toContain('House rule (no import cycle)');
    });

    it('a type-only import back is no cycle', async () => {
      expect(cycleErrors(await lint("import type { CliCommand } from '../command';\nimport type { ANSWER_OPTIONS } from '../commands';\nexport type Probe = [CliCommand, typeof ANSWER_OPTIONS];\n", 'main/cli/subcommands/consent.ts'))).toEqual([]);
    });
  });

  it('a floating promise is an error', async () => {
    const code = 'export async function work(): Promise<void> {}\nexport function caller(): void {\n  work();\n}\n';
    const messages = await lint(code, realFileIn('main/host', '.ts'));
    expect(messages.filter((m) => m.ruleId === '@typescript-eslint/no-floating-promises').map((m) => m.severity)).toEqual([2]);
  });

  it('a type used only as a type must be imported with `import type`', async () => {
    const code = "import { Disposable } from './lifecycle';\nexport const probe = (d: Disposable) => d;\n";
    expect(rulesFired(await lint(code, 'main/host/host.ts'))).toContain('@typescript-eslint/consistent-type-imports');
  });
});
