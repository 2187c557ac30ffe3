/**
 * Harbor spells the Skills extension's id itself (main/host/servers/catalog-cache.ts) so that
 * asking whether a server declares it does not load the SDK's skills extension: it must stay the SDK's.
 */
import { SKILLS_EXTENSION_ID as SDK_ID } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { declaresSkills, SKILLS_EXTENSION_ID } from '../../main/host/servers/catalog-cache';

describe('the Skills extension id', () => {
  it('is the SDK\'s, and a server declaring it is seen to', () => {
    expect(SKILLS_EXTENSION_ID).toBe(SDK_ID);
    expect(declaresSkills({ extensions: { [SDK_ID]: {} } } as never)).toBe(true);
    expect(declaresSkills({ tools: {} })).toBe(false);
  });
});
