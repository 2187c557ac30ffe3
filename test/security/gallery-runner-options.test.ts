/**
 * Findings 2 and 5 attacked again (#27, the outsider's round): what NODE_OPTIONS and
 * npm_config_registry do in the environment, a registry entry can do as the runner's own options,
 * fixed in its `runtimeArguments`: `npx -y --node-options=--import=data:… --registry http://…`,
 * `uvx --index-url http://…`, `docker run --privileged --pid=host …`. The review showed them on the
 * command line, but with no warning, and `--yes` alone installed them. A runner option the entry
 * fixes is refused now unless the runner's own list of plain options holds it (npx, uvx, dnx), and
 * docker's options that hand a container the machine are refused: exit 2 naming the option, nothing
 * written. Real CLI processes against a local MCP Registry on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { runnerOptionProblem } from '../../main/host/gallery/identifiers';
import { runCli } from '../helpers/cli';
import { attackRegistry } from '../helpers/attack-registry';
import { workspace } from '../helpers/workspace';

vi.setConfig({ testTimeout: 120_000 });

const attacks = attackRegistry();
const { roots } = attacks;

describe("runner options a registry entry fixes", () => {
  it.each([
    { entry: 'io.example/runner-flags', shown: '--node-options' },
    { entry: 'io.example/runner-flags-pypi', shown: '--index-url' },
    { entry: 'io.example/runner-flags-oci', shown: '--privileged' },
  ])('gallery add $entry: exit 2 naming "$shown", nothing written', async ({ entry, shown }) => {
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-runopt-');
    roots.push(ws.root);
    const before = readFileSync(ws.config, 'utf8');
    for (const extra of [['--dry-run'], ['--yes']]) {
      const run = await runCli([...ws.flags, 'gallery', 'add', entry, '--registry', attacks.url, ...extra]);
      expect(run.code, `${run.stdout}${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`"${shown}"`);
      expect(readFileSync(ws.config, 'utf8')).toBe(before);
    }
  });

  it('each spelling is caught (=value, a positional, a short flag); plain options and docker mounts stay', () => {
    const named = (name: string, value?: string) => ({ type: 'named' as const, name, ...(value ? { value } : {}) });
    const positional = (value: string) => ({ type: 'positional' as const, value });
    expect(runnerOptionProblem('npm', [named('--registry=http://x/')])).toContain('"--registry"');
    expect(runnerOptionProblem('npm', [positional('--node-options=--require=/x')])).toContain('"--node-options"');
    expect(runnerOptionProblem('npm', [named('-c', 'id')])).toContain('"-c"');
    expect(runnerOptionProblem('pypi', [named('--with', 'evil')])).toContain('"--with"');
    expect(runnerOptionProblem('oci', [positional('--pid=host')])).toContain('"--pid=host"');
    expect(runnerOptionProblem('oci', [named('--network', 'host')])).toContain('"--network host"');
    expect(runnerOptionProblem('oci', [named('--cap-add', 'SYS_ADMIN')])).toContain('"--cap-add"');
    expect(runnerOptionProblem('npm', [named('--quiet')])).toBeUndefined();
    expect(runnerOptionProblem('pypi', [named('--quiet')])).toBeUndefined();
    expect(runnerOptionProblem('oci', [named('--mount', 'type=bind,src={s},dst={d}'), named('-e', 'X'), named('--network', 'none')])).toBeUndefined();
  });
});
