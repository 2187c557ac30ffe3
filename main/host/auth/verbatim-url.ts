/**
 * A URL whose `href` is exactly the text it was made from. The SDK sends the resource indicator
 * as `url.href`, and a URL parser appends "/" to a pathless one (`https://mcp.example` becomes
 * `https://mcp.example/`); authorization servers compare it exactly with what the protected
 * resource metadata published, so it must go out verbatim.
 */
export function verbatimUrl(text: string): URL {
  const url = new URL(text);
  if (url.href !== text) {
    Object.defineProperty(url, 'href', { get: () => text });
    Object.defineProperty(url, 'toString', { value: () => text });
  }
  return url;
}
