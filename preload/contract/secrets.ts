/** Secret names: main and the app's editor name keychain entries the same way. */

/** What a keychain entry may be called: `${secret:NAME}` in the registry. */
export const SECRET_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** "GitHub", "GITHUB_TOKEN" → "github-github_token": a valid secret name, as `harbor import` and the editor make them. */
export function secretNameFor(server: string, key: string): string {
  const base = `${server}-${key}`
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return (base || 'secret').slice(0, 100);
}

