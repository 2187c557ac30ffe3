/**
 * `harbor exec` prints two trace lines per tool call; in a fast loop a write per line cost more
 * than the call (#32 goal 4). CliOutput.coalesce: the lines of a short while leave in one write per
 * run of one stream, in order, within its delay, and all of them by its end.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliOutput } from '../../main/cli/output';

/** A real stream that records each write it is given (and tells a waiter about it). */
class Recorder extends Writable {
  readonly writes: string[] = [];
  private waiters: (() => void)[] = [];
  constructor(private readonly log: { stream: string; text: string }[], private readonly name: string) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const text = chunk.toString();
    this.writes.push(text);
    this.log.push({ stream: this.name, text });
    for (const wake of this.waiters.splice(0)) wake();
    done();
  }
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

function streams() {
  const log: { stream: string; text: string }[] = [];
  const stdout = new Recorder(log, 'stdout');
  const stderr = new Recorder(log, 'stderr');
  return { log, stdout, stderr, out: new CliOutput(false, stdout, stderr) };
}

function loop(out: CliOutput): void {
  for (let i = 0; i < 20; i += 1) {
    out.info(`→ s › echo {"i":${i}}`);
    if (i === 10) out.text('half way');
    out.info(`← s › echo ok (1 ms)`);
  }
}

describe('CliOutput.coalesce', () => {
  it('writes a loop’s trace lines in one write per run of one stream, in the order written, by its end', () => {
    const plain = streams();
    loop(plain.out);
    const held = streams();
    const end = held.out.coalesce(60_000);
    loop(held.out);
    expect(held.log).toEqual([]);
    end();
    // The same text on each stream, and the same interleaving of the two.
    expect(held.stderr.writes.join('')).toBe(plain.stderr.writes.join(''));
    expect(held.stdout.writes.join('')).toBe('half way\n');
    expect(held.log.map((w) => w.stream)).toEqual(['stderr', 'stdout', 'stderr']);
    expect(plain.log.length).toBe(41);
    // After the end, a line leaves at once again.
    held.out.info('after');
    expect(held.stderr.writes.at(-1)).toBe('after\n');
  });

  it('lets held lines out after its delay without waiting for the end', async () => {
    const { out, stderr } = streams();
    const end = out.coalesce(20);
    try {
      const written = stderr.nextWrite();
      out.info('one');
      out.info('two');
      expect(stderr.writes).toEqual([]);
      await written;
      expect(stderr.writes).toEqual(['one\ntwo\n']);
    } finally {
      end();
    }
  });
});
