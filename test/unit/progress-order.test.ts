import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ProgressFirstDelivery } from '../../main/host/servers/progress-order';

const progress = (token: number, progress: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress } });
const result = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
const note = (method: string): JSONRPCMessage => ({ jsonrpc: '2.0', method });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function recorder() {
  const delivered: string[] = [];
  const label = (m: JSONRPCMessage) => ('method' in m ? m.method : `result ${String((m as { id: number }).id)}`);
  return { delivered, delivery: new ProgressFirstDelivery((m) => delivered.push(label(m))) };
}

describe('progress before results', () => {
  it('holds a result that follows its own progress in one turn, and what came after it, until the next turn', async () => {
    const { delivered, delivery } = recorder();
    delivery.push(progress(1, 3));
    delivery.push(result(1));
    delivery.push(note('notifications/tools/list_changed'));
    expect(delivered).toEqual(['notifications/progress']);
    await nextTurn();
    expect(delivered).toEqual(['notifications/progress', 'result 1', 'notifications/tools/list_changed']);
  });

  it('passes other results at once', () => {
    const { delivered, delivery } = recorder();
    delivery.push(progress(1, 1));
    delivery.push(result(2));
    expect(delivered).toEqual(['notifications/progress', 'result 2']);
  });

  it('hands over everything held when the transport closes', () => {
    const { delivered, delivery } = recorder();
    delivery.push(progress(7, 1));
    delivery.push(result(7));
    delivery.flush();
    expect(delivered).toEqual(['notifications/progress', 'result 7']);
  });
});
