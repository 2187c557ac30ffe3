/**
 * Does this URL carry a user name or password? `https://github.com@127.0.0.1/…` reads as one host
 * and goes to another, so the registry schema refuses every remote URL that has one (look-alikes
 * in general: lookalike.ts). Plain JavaScript, no Node module: the schema is read in the page's tests too.
 */
export function hasUserInfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false; // not a URL: the schema refuses it on its own
  }
}
