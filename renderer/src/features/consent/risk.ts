/**
 * A tool's risk in words, from the hints its server gives (MCP tool annotations). Every tool gets
 * a line: a server that says nothing gets the specification's defaults spelled out — it may change
 * data and may reach outside services — because silence is not safety. The hints are the server's
 * claims; the dialog says so next to them.
 */
export function riskLine(annotations: Record<string, unknown> | undefined): string {
  const a = annotations ?? {};
  const parts: string[] = [];
  if (a.readOnlyHint === true) parts.push('Read-only: it only reads data');
  else if (a.destructiveHint === true) parts.push('Destructive: it may delete or overwrite data');
  else if (a.destructiveHint === false) parts.push('May change data (it adds, but does not delete or overwrite)');
  else parts.push('May change data: the server does not say whether it only reads or also deletes');
  if (a.idempotentHint === true && a.readOnlyHint !== true) parts.push('safe to repeat');
  if (a.openWorldHint === true) parts.push('open world: it reaches outside services, such as the internet');
  else if (a.openWorldHint === false) parts.push('stays within its own system');
  return `${parts.join('; ')}.`;
}
