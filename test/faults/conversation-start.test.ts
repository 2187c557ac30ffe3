/**
 * A new conversation and its first turn are one write: when the turn cannot be stored (here a
 * trigger in the real conversations.db refuses it, as a kill or a full disk would stop it), no
 * empty conversation is left behind.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { writeFileSync } from 'node:fs';

let model: ScriptedModel | undefined;
let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(async () => {
  await model?.close();
  registry?.remove();
  model = registry = undefined;
});

describe('starting a conversation', () => {
  it('stores the conversation and its first turn together, or neither', { timeout: 400_000 }, async () => {
    model = await startScriptedModel({ script: [{ text: 'first' }, { text: 'second' }] });
    registry = tempRegistry({});
    writeFileSync(registry.config, JSON.stringify({ mcpServers: {}, model: model.modelConfig() }, null, 2));
    const flags = ['--config', registry.config, '--data-dir', registry.dir];
    const env = { HARBOR_KEYCHAIN_SERVICE: 'harbor-faults-test' };
    const first = await runCli([...flags, 'chat', 'hello'], { env, timeoutMs: 150_000 });
    expect(first.code, first.stderr).toBe(0);
    const path = join(registry.dir, 'conversations.db');
    const db = new DatabaseSync(path);
    db.exec("CREATE TRIGGER no_turns BEFORE INSERT ON turns BEGIN SELECT RAISE(ABORT, 'the turn could not be stored'); END;");
    db.close();
    const failed = await runCli([...flags, 'chat', 'hello again'], { env, timeoutMs: 150_000 });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/the turn could not be stored/);
    const check = new DatabaseSync(path, { readOnly: true });
    const conversations = check.prepare('SELECT id FROM conversations').all();
    const empty = check.prepare('SELECT id FROM conversations c WHERE NOT EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = c.id)').all();
    check.close();
    expect(empty).toEqual([]);
    expect(conversations).toHaveLength(1);
  });
});
