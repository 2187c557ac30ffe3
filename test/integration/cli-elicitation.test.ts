/**
 * The CLI answering a server's questions, against server-everything 2026.8.31 (stdio, from npm):
 * an --answer is checked against the schema the server asked with before anything is sent
 * (exit 2 naming each field; unknown fields dropped with a note), a page the server asks for is
 * printed (and opened with --open, through the platform opener — here a stand-in xdg-open that
 * records its argument), and "open this page first" (-32042) is shown with its URL, or with
 * --open handled and the call tried again.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, NODE } from '../helpers/host';
import { runCli, tempRegistry } from '../helpers/cli';
import { startLegacyHttpServer } from '../helpers/http-server';

const registry = tempRegistry({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } });
const g = ['--config', registry.config, '--data-dir', registry.dir];

/** A PATH whose xdg-open only writes down the URL it was asked to open. */
const bin = mkdtempSync(join(tmpdir(), 'harbor-opener-'));
const opened = join(bin, 'opened.log');
writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
chmodSync(join(bin, 'xdg-open'), 0o755);
const withOpener = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
const openedUrls = () => (existsSync(opened) ? readFileSync(opened, 'utf8').trim().split('\n') : []);

afterAll(() => {
  registry.remove();
  rmSync(bin, { recursive: true, force: true });
});

const FORM = ['call', 'everything', 'trigger-elicitation-request', '--yes'];

/** What Harbor sent back to the server's elicitation/create, from --trace. */
function answersSent(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /"action"\s*:/.test(line));
}

describe('harbor call: --answer is checked against the form the server asks for', () => {
  it('rejects a wrong type and an out-of-range number with exit 2, naming each field; nothing is sent', async () => {
    const run = await runCli([...g, '--trace', ...FORM, '--answer', '{"name":5,"integer":1000}']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--answer does not fit what "everything" asks for: "name" must be a string (got 5); "integer" must be at most 100 (got 1000). Nothing was sent.');
    expect(answersSent(run.stderr).filter((l) => l.includes('"accept"'))).toEqual([]);
    expect(run.stdout).toBe('');
  });

  it('without --answer, declines and prints the fields asked for, so the --answer can be written the first time', async () => {
    const run = await runCli([...g, ...FORM]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(declined: no --answer given)');
    // Each field: its name, its type, whether it is required, its choices.
    expect(run.stderr).toMatch(/^ {4}name +string, required\b/m);
    expect(run.stderr).toMatch(/^ {4}integer +integer\b(?!, required)/m);
    expect(run.stderr).toMatch(/^ {4}untitledSingleSelectEnum +string, one of "Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"/m);
    expect(run.stderr).toMatch(/^ {4}titledSingleSelectEnum +string, one of "hero-1" \(Superman\), "hero-2" \(Green Lantern\)/m);
    expect(run.stderr).toMatch(/^ {4}untitledMultipleSelectEnum +list of "Guitar", "Piano", "Violin", "Drums", "Bass"/m);
    expect(run.stderr).toMatch(/answer with: --answer '\{"name":/);
  });

  it('rejects an empty answer when a field is required', async () => {
    const run = await runCli([...g, ...FORM, '--answer', '{}']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"name" is required');
  });

  it('sends a valid answer with the schema defaults filled in; fields not asked for are dropped with a note', async () => {
    const run = await runCli([...g, '--trace', ...FORM, '--answer', '{"name":"Ada","integer":7,"bogus":true}']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: --answer fields "everything" does not ask for were left out: bogus');
    expect(run.stdout).toContain('- Name: Ada');
    expect(run.stdout).toContain('- Favorite Integer: 7');
    const [sent] = answersSent(run.stderr).filter((l) => l.includes('"accept"'));
    expect(sent).toContain('"firstLine":"It was a dark and stormy night."');
    expect(sent).not.toContain('bogus');
  });
});

describe('harbor call: pages a server asks the person to open', () => {
  const URL_TOOL = ['call', 'everything', 'trigger-url-elicitation', '--yes'];

  it('without --open, declines the page and prints the URL it declined', async () => {
    const run = await runCli([...g, ...URL_TOOL, '--args', '{"url":"https://example.com/finish"}'], { env: withOpener });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('declined the page https://example.com/finish (run again with --open to open it in your browser)');
    expect(run.stdout).toContain('User declined to open the URL');
    expect(openedUrls()).toEqual([]);
  });

  it('with --open, opens it in the system browser and accepts', async () => {
    rmSync(opened, { force: true });
    const run = await runCli([...g, ...URL_TOOL, '--args', '{"url":"https://example.com/finish"}', '--open'], { env: withOpener });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('opened https://example.com/finish in your browser');
    expect(run.stdout).toContain('User completed the URL elicitation flow');
    expect(openedUrls()).toEqual(['https://example.com/finish']);
  });

  it('"open this page first" (-32042) is an error that shows its URL (exit 4), also as data with --json', async () => {
    rmSync(opened, { force: true });
    const args = ['--args', '{"url":"https://example.com/finish","errorPath":true}'];
    const human = await runCli([...g, ...URL_TOOL, ...args], { env: withOpener });
    expect(human.code).toBe(4);
    expect(human.stderr).toContain('harbor: "everything" needs you to open a page before it can go on calling tool trigger-url-elicitation:');
    expect(human.stderr).toContain('  https://modelcontextprotocol.io (Open this link to satisfy the prerequisite, then retry the request.)');
    // Said once, by the error: not also as a declined question before it.
    expect(human.stderr.split('https://modelcontextprotocol.io').length - 1).toBe(1);
    const json = await runCli([...g, '--json', ...URL_TOOL, ...args], { env: withOpener });
    expect(json.code).toBe(4);
    expect(json.json()[0]).toMatchObject({
      error: { code: 'URL_ELICITATION_REQUIRED', pages: [{ url: 'https://modelcontextprotocol.io', message: expect.any(String), elicitationId: expect.any(String) }] },
    });
    expect(openedUrls()).toEqual([]);
  });

  it('with --open, opens the page, waits for the server (here: until --timeout), and tries the call again', async () => {
    rmSync(opened, { force: true });
    const run = await runCli([...g, ...URL_TOOL, '--args', '{"url":"https://example.com/finish","errorPath":true}', '--open', '--timeout', '1500'], { env: withOpener });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Waiting for "everything" to say the page is done (up to 2 s; Ctrl-C cancels)…');
    expect(run.stderr).toContain('No word from "everything" in time; trying again.');
    expect(run.stdout).toContain('User completed the URL elicitation flow');
    expect(openedUrls()).toEqual(['https://modelcontextprotocol.io/', 'https://example.com/finish']);
  });

  it('with --open, waits for the server to say the page is done (notifications/elicitation/complete), then tries again', async () => {
    rmSync(opened, { force: true });
    const server = await startLegacyHttpServer('streamable');
    const remote = tempRegistry({ legacy: { url: server.url } });
    try {
      const started = Date.now();
      const run = await runCli(['--config', remote.config, '--data-dir', remote.dir, 'call', 'legacy', 'needs_page', '--yes', '--open', '--timeout', '20000'], { env: withOpener });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('"legacy" says the page is done; trying again.');
      expect(run.stdout).toContain('done after the page');
      expect(openedUrls()).toEqual(['https://example.com/consent']);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      remote.remove();
      await server.kill();
    }
  });
});
