/** DOM helpers for the component tests: unsafe attributes, and a layout happy-dom does not do. */

/** Every attribute in the subtree that could run script or load something by itself. */
export function dangerousAttributes(root: Element): string[] {
  const found: string[] = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim().toLowerCase();
      if (name.startsWith('on')) found.push(`${el.tagName.toLowerCase()}[${name}]`);
      if ((name === 'href' || name === 'src' || name === 'action' || name === 'formaction' || name === 'xlink:href') && /^(javascript|vbscript|data:text)/.test(value)) {
        found.push(`${el.tagName.toLowerCase()}[${name}=${attr.value}]`);
      }
    }
  }
  return found;
}

/**
 * happy-dom has no layout: give the message list's scroll area and its rows a size, so the
 * virtualizer sees a 600 px window over rows of 60 px (as a browser would report). Returns undo.
 */
export function layoutMessageList(viewport = 600, row = 60): () => void {
  const proto = HTMLElement.prototype;
  const originals = (['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const);
  const fallback = (name: string, el: HTMLElement): number => {
    const original = originals.find(([n]) => n === name)?.[1];
    return (original?.get?.call(el) as number | undefined) ?? 0;
  };
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages') ? viewport : fallback('clientHeight', this); } });
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages') ? 800 : fallback('clientWidth', this); } });
  Object.defineProperty(proto, 'offsetHeight', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages__row') ? row : fallback('offsetHeight', this); } });
  Object.defineProperty(proto, 'offsetWidth', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages__row') ? 800 : fallback('offsetWidth', this); } });
  return () => {
    for (const [name, descriptor] of originals) {
      if (descriptor) Object.defineProperty(proto, name, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[name];
    }
  };
}
