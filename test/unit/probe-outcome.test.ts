import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ProbeOutcome } from '../../main/host/servers/probe-outcome';

const probe = { jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: {} } as JSONRPCMessage;
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } as JSONRPCMessage;
const probeResult = { jsonrpc: '2.0', id: 'server-discover-probe-1', result: { supportedVersions: ['2026-07-28'] } } as JSONRPCMessage;
const probeError = { jsonrpc: '2.0', id: 'server-discover-probe-1', error: { code: -32601, message: 'Method not found' } } as JSONRPCMessage;

function run(...steps: Array<['out' | 'in', JSONRPCMessage]>): ProbeOutcome {
  const outcome = new ProbeOutcome();
  for (const [direction, message] of steps) outcome.observe(direction, message);
  return outcome;
}

describe('era probe outcome', () => {
  it('a result after the fallback to initialize: the server was only slow', () => {
    expect(run(['out', probe], ['out', initialize], ['in', probeResult]).answeredLate).toBe(true);
  });

  it('an answer in time, an error late, or no answer at all: a real verdict', () => {
    expect(run(['out', probe], ['in', probeResult]).answeredLate).toBe(false);
    expect(run(['out', probe], ['in', probeError], ['out', initialize]).answeredLate).toBe(false);
    expect(run(['out', probe], ['out', initialize], ['in', probeError]).answeredLate).toBe(false);
    expect(run(['out', probe], ['out', initialize]).answeredLate).toBe(false);
  });

  it('a connect with a cached verdict (no probe) learns nothing', () => {
    expect(run(['out', initialize], ['in', probeResult]).answeredLate).toBe(false);
  });
});
