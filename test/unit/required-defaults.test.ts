import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { declareCall } from '../../main/host/code-mode/declarations';
import { JsonSchemaValidator } from '../../main/host/json-schema';
import { withDefaultsOptional } from '../../main/host/tools/required-defaults';

// The shape zod's `.default()` gives (@playwright/mcp's browser_take_screenshot, recorded 0.0.86).
const screenshot = {
  type: 'object',
  properties: { type: { type: 'string', enum: ['png', 'jpeg'] }, scale: { type: 'string', enum: ['css', 'device'], default: 'css' } },
  required: ['scale'],
  additionalProperties: false,
};

describe('a required property with a default counts as present', () => {
  it('is made optional at the top and at any depth, other requirements kept', () => {
    const nested = { type: 'object', properties: { page: { ...screenshot, required: ['scale', 'type'] } }, required: ['page'] };
    expect(withDefaultsOptional(screenshot)).toMatchObject({ required: [] });
    expect(withDefaultsOptional(nested)).toMatchObject({ required: ['page'], properties: { page: { required: ['type'] } } });
    expect(withDefaultsOptional({ anyOf: [screenshot] })).toMatchObject({ anyOf: [{ required: [] }] });
    expect(withDefaultsOptional({ type: 'array', items: screenshot })).toMatchObject({ items: { required: [] } });
  });

  it('leaves the schema it was given alone, and returns it as is when nothing changes', () => {
    const copy = structuredClone(screenshot);
    withDefaultsOptional(screenshot);
    expect(screenshot).toEqual(copy);
    const plain = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(withDefaultsOptional(plain)).toBe(plain);
  });

  it('lets the argument check pass without it, and still refuses a wrong value', () => {
    const check = new JsonSchemaValidator().prepare(withDefaultsOptional(screenshot));
    expect(check({}).valid).toBe(true);
    expect(check({ scale: 'huge' }).valid).toBe(false);
  });

  it("makes it optional in code mode's typed API", () => {
    const tool = { name: 'browser_take_screenshot', inputSchema: screenshot } as unknown as Tool;
    expect(declareCall('playwright', tool)).toMatch(/\(args\?: \{[^}]*scale\?:/);
  });
});
