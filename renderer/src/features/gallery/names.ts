/** The name a gallery server gets by default: the last part of its registry name, as the Host suggests it. */
export function suggestedName(registryName: string): string {
  const last = registryName.split('/').filter(Boolean).pop() ?? registryName;
  return (
    last
      .replace(/^@/, '')
      .replace(/[^A-Za-z0-9 ._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .replace(/[-\s]+$/, '')
      .slice(0, 100) || 'server'
  );
}
