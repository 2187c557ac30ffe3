/**
 * A one-shot command keeps V8's young generation small (peak memory, #32 goal 2): V8 doubles its
 * semi-spaces whenever a scavenge finds most of them alive, which loading the Host's modules does,
 * and the doubled space stays committed until exit (about 11 MB of a `harbor tools`). The runner
 * asks for the small young generation only for commands that end when their answer is out; a
 * long-lived one (web, chat, watch, exec) keeps V8's default, which a long run's throughput wants.
 */
import { describe, expect, it } from 'vitest';
import type { CliCommand } from '../../main/cli/command';
import { runCli } from '../../main/cli/run';
import { Writable } from 'node:stream';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

function command(name: string, longLived?: true): CliCommand {
  return {
    name,
    summary: name,
    usage: name,
    ...(longLived ? { longLived } : {}),
    load: async () => ({ run: async () => 0 }),
  };
}

describe('the young generation of a one-shot command', () => {
  const commands = [command('tools'), command('web', true)];
  const run = async (argv: string[]) => {
    const calls: string[] = [];
    const code = await runCli({
      argv,
      commands,
      createHost: () => Promise.reject(new Error('no Host in this test')),
      stdout: sink(),
      stderr: sink(),
      oneShot: () => calls.push(argv[0]!),
    });
    return { code, calls };
  };

  it('is kept small for a command that ends when its answer is out', async () => {
    expect(await run(['tools'])).toEqual({ code: 0, calls: ['tools'] });
  });

  it('keeps V8 default for a long-lived command, and for --help and usage errors (which load nothing)', async () => {
    expect(await run(['web'])).toEqual({ code: 0, calls: [] });
    expect((await run(['tools', '--help'])).calls).toEqual([]);
    expect((await run(['tools', 'extra'])).calls).toEqual([]);
  });
});
