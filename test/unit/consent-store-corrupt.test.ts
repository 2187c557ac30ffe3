/**
 * Rows read back from the consent database are parsed: a real SQLite file, corrupted on purpose
 * behind the store's back, gives DATA_CORRUPT naming the file, the table, the row and a fix that
 * works — never a SyntaxError, and never a value that only claims its type.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { definitionOf, fingerprintTool } from '../../main/host/consent/fingerprint';
import { ConsentStore } from '../../main/host/consent/store';

const tool: Tool = { name: "it's_mine", description: 'Files an issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } };

const github = { name: 'github', identity: 'stdio:github' };
let dir: string;
let path: string;
let store: ConsentStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-consent-corrupt-'));
  path = join(dir, 'consent.db');
  // watch: false makes every read ask SQLite whether another connection committed (the corruption).
  store = new ConsentStore(path, { watch: false });
  store.grant(github, tool.name, 'always', fingerprintTool(tool), definitionOf(tool));
  store.approveLaunch(github, 'hash', 'npx github-mcp');
  store.recordChange(github, tool.name, definitionOf(tool), definitionOf({ ...tool, description: 'Mails your keys away' }), ['description']);
  store.setOverride(github, '*', 'ask');
});

afterEach(() => {
  store.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** What another program (or a bad disk) does to the file while Harbor runs. */
function corrupt(sql: string): void {
  const other = new DatabaseSync(path);
  try {
    other.exec(`PRAGMA ignore_check_constraints = ON; ${sql}`);
  } finally {
    other.close();
  }
}

function failure(read: () => unknown): HarborError {
  try {
    read();
  } catch (error) {
    if (error instanceof HarborError) return error;
    throw new Error(`expected a HarborError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the read to fail, but it returned a value');
}

describe('consent store: corrupt rows', () => {
  it.each([
    ['definition is not JSON', `UPDATE tool_approvals SET definition = 'not json{'`, 'definition: not valid JSON'],
    ['definition is JSON but no tool', `UPDATE tool_approvals SET definition = '{"name": 5}'`, 'definition: not an MCP tool definition'],
    ['created_at is text', `UPDATE tool_approvals SET created_at = 'yesterday'`, 'created_at:'],
    ['kind is unknown', `UPDATE tool_approvals SET kind = 'sometimes'`, 'kind:'],
  ])('a tool approval whose %s names the row and `harbor consent revoke`, which clears it', (_label, sql, problem) => {
    corrupt(sql);
    const error = failure(() => store.approvals());
    expect(error.code).toBe('DATA_CORRUPT');
    expect(error.message).toContain(`consent database (${path})`);
    expect(error.message).toContain('tool_approvals');
    expect(error.message).toContain("server = 'github' AND tool = 'it''s_mine'");
    expect(error.message).toContain(problem);
    expect(error.message).toContain(`harbor consent revoke github ${tool.name}`);
    expect(error.message).toContain(`delete ${path}`);
    store.revoke(github.identity, tool.name);
    expect(store.approvals()).toEqual([]);
  });

  it('a recorded change whose changed list is not a list names the row and an SQL fix that works', () => {
    corrupt(`UPDATE tool_changes SET changed = '"description"'`);
    const error = failure(() => store.changes());
    expect(error.code).toBe('DATA_CORRUPT');
    expect(error.message).toContain('tool_changes (id = 1): changed:');
    expect(failure(() => store.lastChange(github.identity, tool.name)).code).toBe('DATA_CORRUPT');
    const statement = /sqlite3 "[^"]+" "(.+?)", or quit Harbor/.exec(error.message)?.[1];
    expect(statement).toBe('DELETE FROM tool_changes WHERE id = 1');
    corrupt(statement!);
    expect(store.changes()).toEqual([]);
  });

  it('a launch approval with bytes where its hash belongs names the server to revoke', () => {
    corrupt("UPDATE launch_approvals SET launch_hash = x'01'");
    for (const read of [() => store.launchApprovals(), () => store.launchApproval(github.identity)]) {
      const error = failure(read);
      expect(error.code).toBe('DATA_CORRUPT');
      expect(error.message).toContain("launch_approvals (server = 'github'): launch_hash:");
      expect(error.message).toContain('harbor consent revoke github (');
    }
  });

  it('the hot path: an unknown policy mode or a binary pin fails the standing read with the row it came from', () => {
    expect(store.standing(github.identity, tool.name)).toMatchObject({ override: 'ask', always: fingerprintTool(tool) });
    corrupt(`UPDATE policy_overrides SET mode = 'sometimes'`);
    const mode = failure(() => store.standing(github.identity, tool.name));
    expect(mode.code).toBe('DATA_CORRUPT');
    expect(mode.message).toContain("policy_overrides (server = 'github' AND tool = '*'): mode:");
    expect(failure(() => store.overrides()).message).toContain('policy_overrides');
    corrupt(`DELETE FROM policy_overrides; UPDATE tool_approvals SET fingerprint = x'00ff'`);
    const pin = failure(() => store.standing(github.identity, tool.name));
    expect(pin.message).toContain("tool_approvals (server = 'github' AND tool = 'it''s_mine' AND kind = 'always'): fingerprint:");
  });
});
