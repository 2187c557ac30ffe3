/**
 * Token accounting against a real server: a tool costs the o200k_base tokens of its name +
 * description + compact JSON of its inputSchema. Reference figures, measured on
 * @modelcontextprotocol/server-everything@2026.8.31 seen by a client that declares elicitation
 * form + url and tasks, with sampling denied so trigger-sampling-request is not offered (16 tools):
 * ≈ 1,374 tokens of tools, 312 of instructions (±10 %).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestHost } from '../helpers/host';
import { createTestHost } from '../helpers/host';
import { chatPort, everythingServer } from '../fixtures/model/chat-host';
import { loadTokenCounter, serverTokenCost, toolTokens } from '../../main/host/tools/tokens';
import { gatherTurnTools, searchOffer } from '../../main/host/chat/turn-tools';

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('token accounting', () => {
  it('matches the reference figures for server-everything', async () => {
    test = await createTestHost({ everything: everythingServer({ sampling: 'deny' }) });
    const catalog = await test.host.calls.catalog('everything');
    const instructions = await test.host.calls.instructions('everything');
    const count = await loadTokenCounter();
    const cost = serverTokenCost(count, catalog.tools, instructions);
    console.log(`server-everything: ${catalog.tools.length} tools, ${cost.toolTokens} tool tokens, ${cost.instructionTokens} instruction tokens`);
    expect(catalog.tools).toHaveLength(16);
    expect(cost.toolTokens).toBeGreaterThanOrEqual(Math.floor(1374 * 0.9));
    expect(cost.toolTokens).toBeLessThanOrEqual(Math.ceil(1374 * 1.1));
    expect(cost.instructionTokens).toBeGreaterThanOrEqual(Math.floor(312 * 0.9));
    expect(cost.instructionTokens).toBeLessThanOrEqual(Math.ceil(312 * 1.1));
    expect([...cost.perTool.values()].reduce((a, b) => a + b, 0)).toBe(cost.toolTokens);
    // Per tool: name + description + schema, each counted on its own.
    const echo = catalog.tools.find((t) => t.name === 'echo')!;
    expect(cost.perTool.get('echo')).toBe(count('echo') + count(echo.description ?? '') + count(JSON.stringify(echo.inputSchema)));
    // Disabled tools do not count toward the server's total.
    const without = serverTokenCost(count, catalog.tools, instructions, new Set(['echo']));
    expect(without.toolTokens).toBe(cost.toolTokens - cost.perTool.get('echo')!);
  });

  it('counts special-token text in a description as plain text', async () => {
    const count = await loadTokenCounter();
    expect(toolTokens(count, { name: 'x', description: 'ends <|endoftext|> here', inputSchema: {} })).toBeGreaterThan(3);
  });

  it('progressive discovery offers two small, constant tools instead of every definition', async () => {
    test = await createTestHost({ everything: everythingServer() });
    const settings = { ...test.host.settings.chat(), toolSearch: 'on' as const };
    const tools = await gatherTurnTools(chatPort(test.host), settings, undefined);
    const count = await loadTokenCounter();
    const meta = searchOffer().reduce((n, t) => n + toolTokens(count, t), 0);
    console.log(`exposed definitions of server-everything: ${tools.definitionTokens} tokens; search_tools + call_tool: ${meta} tokens`);
    expect(tools.mode).toBe('search');
    expect(tools.offered.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    expect(meta).toBeLessThan(tools.definitionTokens / 5);
  });
});
