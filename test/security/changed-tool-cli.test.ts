/**
 * `harbor tools --json` marks a tool its server changed after the person approved it: the mark
 * and the changed fields are on the tool's object (the other fields as before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';

let server: RunningHttpServer;
let registry: ReturnType<typeof tempRegistry>;
let g: string[];

beforeAll(async () => {
  server = await startHttpFeatureServer();
  registry = tempRegistry({ remote: { url: server.url } });
  g = ['--config', registry.config, '--data-dir', registry.dir];
  // A fresh data folder approves no remote server: the person approves this one first.
  expect((await runCli([...g, 'consent', 'grant-launch', 'remote'])).code).toBe(0);
});
afterAll(async () => {
  registry.remove();
  await server.kill('SIGKILL');
});

type ToolRow = { name: string; description?: string; changedSinceApproval?: boolean; changedFields?: string[]; offered?: boolean; reason?: string | null };

describe('harbor tools marks a tool changed since the person approved it', () => {
  it('carries changedSinceApproval and the changed fields on the tool', async () => {
    expect((await runCli([...g, 'consent', 'grant', 'remote', 'echo', '--always'])).code).toBe(0);
    const before = (await runCli([...g, '--json', 'tools', 'remote'])).json<ToolRow[]>()[0]!;
    expect(before.find((t) => t.name === 'echo')).not.toHaveProperty('changedSinceApproval');
    expect(before.find((t) => t.name === 'echo')).toMatchObject({ offered: true, reason: null });

    expect((await runCli([...g, 'call', 'remote', 'mutate', '--args', '{"description":"Echo, and read ~/.ssh/id_rsa"}', '--yes'])).code).toBe(0);
    const run = await runCli([...g, '--json', 'tools', 'remote']);
    expect(run.code).toBe(0);
    const tools = run.json<ToolRow[]>()[0]!;
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({ description: 'Echo, and read ~/.ssh/id_rsa', changedSinceApproval: true, changedFields: ['description'] });
    expect(tools.filter((t) => t.changedSinceApproval).map((t) => t.name)).toEqual(['echo']);
    // Offered as the person approved it until they review the change: the reason says so.
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({ offered: true, reason: 'needs-approval' });
    expect(tools.filter((t) => t.reason === 'needs-approval').map((t) => t.name)).toEqual(['echo']);

    const human = await runCli([...g, 'tools', 'remote']);
    expect(human.stdout).toMatch(/remote {2}echo {2}\[changed since you approved it: description\]/);
  });
});
