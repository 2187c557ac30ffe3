import type { ServerSummary } from '../../preload/contract';

type Counts = ServerSummary['counts'];

/**
 * A server as the Host reports it (ServerSummary), for canned answers and fixtures: a stdio
 * server, enabled, not trusted, ready, with an empty catalog, unless the test says otherwise.
 */
export function serverSummary(name: string, overrides: Omit<Partial<ServerSummary>, 'counts'> & { counts?: Partial<Counts> } = {}): ServerSummary {
  const { counts, ...rest } = overrides;
  return {
    name,
    transport: 'stdio',
    enabled: true,
    trusted: false,
    target: 'node server.js',
    state: { kind: 'ready' },
    ...rest,
    counts: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0, ...counts },
  };
}

/** A stopped stdio server as the contract describes one: for tests of what carries summaries, not of the Host. */
export const STOPPED_SUMMARY: ServerSummary = serverSummary('notes', { target: 'node notes.js', state: { kind: 'stopped' } });
