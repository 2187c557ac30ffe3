import type { ServerSummary } from '../../preload/contract';

/** A stopped stdio server as the contract describes one: for tests of what carries summaries, not of the Host. */
export const STOPPED_SUMMARY: ServerSummary = {
  name: 'notes',
  transport: 'stdio',
  enabled: true,
  trusted: false,
  target: 'node notes.js',
  state: { kind: 'stopped' },
  counts: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 },
};
