/**
 * Letters outside ASCII that imitate an ASCII letter (after Unicode's confusables, UTS #39, and
 * the letters browsers show a host in punycode for): Cyrillic, Greek and Armenian letters drawn
 * like Latin ones, and Latin letters drawn like plainer ones (ɡ, dotless ı). A name or host label
 * whose every letter outside ASCII is one of these reads as a plain ASCII name — `аррӏе` as
 * `apple` — whether or not it mixes scripts (lookalike.ts).
 */
const IMITATES: Readonly<Record<string, string>> = {
  // Cyrillic, small and capital
  а: 'a', с: 'c', ԁ: 'd', е: 'e', һ: 'h', і: 'i', ј: 'j', ӏ: 'l', о: 'o', р: 'p', ԛ: 'q', ѕ: 's', ԝ: 'w', х: 'x', у: 'y', ү: 'y', ѵ: 'v',
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', І: 'I', Ӏ: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P', Ѕ: 'S', Т: 'T', Х: 'X', У: 'Y', Ү: 'Y', Ԝ: 'W',
  // Greek
  α: 'a', ο: 'o', ν: 'v', ι: 'i', κ: 'k', ρ: 'p', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Armenian
  օ: 'o', ս: 'u', ո: 'n', հ: 'h', ց: 'g', զ: 'q',
  // Latin letters drawn like plainer ones
  ı: 'i', ȷ: 'j', ɡ: 'g', ɑ: 'a', ɩ: 'i', ǀ: 'l', ᴏ: 'o', ᴄ: 'c', ᴠ: 'v', ᴡ: 'w', ᴢ: 'z', ꜱ: 's',
};

/**
 * The plain ASCII name `text` reads as, when it has letters outside ASCII and every one of them
 * imitates an ASCII letter; undefined otherwise (plain ASCII, or a real name in another script).
 */
export function readsAs(text: string): string | undefined {
  let imitated = false;
  let out = '';
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) {
      out += char;
      continue;
    }
    const ascii = IMITATES[char];
    if (ascii === undefined) return undefined;
    imitated = true;
    out += ascii;
  }
  return imitated ? out : undefined;
}
