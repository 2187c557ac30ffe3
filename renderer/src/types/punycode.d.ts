// punycode.js ships no types; the renderer uses its ES module build (the bare name "punycode" is
// Node's deprecated built-in, which the renderer may not import).
declare module 'punycode/punycode.es6.js' {
  /** One label's punycode (without "xn--") to Unicode; throws RangeError when malformed. */
  export function decode(input: string): string;
}
