/**
 * Compares two version strings the way people read them: numeric parts as numbers
 * ("1.10.0" > "1.9.2"), a pre-release ("2.0.0-beta") before its release. Negative when a < b.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split(/-(.*)/s, 2);
  const [coreB = '', preB] = b.split(/-(.*)/s, 2);
  const partsA = coreA.split(/[.+]/);
  const partsB = coreB.split(/[.+]/);
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const x = partsA[i] ?? '0';
    const y = partsB[i] ?? '0';
    const diff = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (diff !== 0) return diff;
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  return preA.localeCompare(preB, undefined, { numeric: true });
}
