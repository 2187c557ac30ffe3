/**
 * "Allow this App to use SERVER's tools for this session" (#31 item 7): what the person granted one
 * App, in memory only — never written, gone when Harbor quits (or the Host is disposed).
 *
 * An App here is its server as configured (the identity every consent decision is keyed by, so a
 * changed command or URL is another server) and its `ui://` resource: every instance of that App
 * — shown again for another run, scrolled back into view, after a reload — is covered; another App
 * of the same server, the same resource served by another server, the model, code mode and the
 * person's own calls are not (the gate asks this only for an App's own call). A grant lists each
 * tool it covers with the fingerprint of its definition when granted: a tool added or changed
 * since is not covered, and asks (with the diff, when it was approved or ran before).
 */
export class AppSessionGrants {
  /** By App (identity and ui:// resource): each covered tool and its definition's fingerprint. */
  private readonly grants = new Map<string, Map<string, string>>();

  /** The App gets (or adds to its grant) these tools, each as defined now. */
  grant(identity: string, uri: string, tools: ReadonlyMap<string, string>): void {
    const key = appKey(identity, uri);
    const granted = this.grants.get(key) ?? new Map<string, string>();
    for (const [tool, fingerprint] of tools) granted.set(tool, fingerprint);
    this.grants.set(key, granted);
  }

  /** Whether the App's grant covers this tool with this exact definition. */
  covers(identity: string, uri: string, tool: string, fingerprint: string): boolean {
    return this.grants.get(appKey(identity, uri))?.get(tool) === fingerprint;
  }

  /** A server's Apps' grants end (its approvals revoked, or it left the registry) — or, with `tool`, that tool leaves them. */
  forget(identity: string, tool?: string): void {
    const prefix = appKey(identity, '');
    for (const [key, tools] of [...this.grants]) {
      if (!key.startsWith(prefix)) continue;
      if (tool === undefined) this.grants.delete(key);
      else tools.delete(tool);
    }
  }
}

function appKey(identity: string, uri: string): string {
  return `${identity}\u0000${uri}`;
}
