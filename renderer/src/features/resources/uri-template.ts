/**
 * RFC 6570 URI templates, levels 1–3 (what MCP resource templates use): the variable names of a
 * template, and its expansion with values. Level-4 modifiers (`:3`, `*`) are read, and values are
 * used whole.
 */
const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const spec of match[2]!.split(',')) {
      const name = spec.replace(/[:*].*$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean; ifEmpty: string }> = {
  '': { first: '', sep: ',', named: false, reserved: false, ifEmpty: '' },
  '+': { first: '', sep: ',', named: false, reserved: true, ifEmpty: '' },
  '#': { first: '#', sep: ',', named: false, reserved: true, ifEmpty: '' },
  '.': { first: '.', sep: '.', named: false, reserved: false, ifEmpty: '' },
  '/': { first: '/', sep: '/', named: false, reserved: false, ifEmpty: '' },
  ';': { first: ';', sep: ';', named: true, reserved: false, ifEmpty: '' },
  '?': { first: '?', sep: '&', named: true, reserved: false, ifEmpty: '=' },
  '&': { first: '&', sep: '&', named: true, reserved: false, ifEmpty: '=' },
};

function encode(value: string, reserved: boolean): string {
  // Reserved expansion keeps URI delimiters (and existing %XX) as they are.
  return reserved ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_whole, op: string, specs: string) => {
    const operator = OPERATORS[op] ?? OPERATORS['']!;
    const parts: string[] = [];
    for (const spec of specs.split(',')) {
      const name = spec.replace(/[:*].*$/, '').trim();
      const value = values[name];
      if (value === undefined) continue;
      const encoded = encode(value, operator.reserved);
      parts.push(operator.named ? (value === '' ? `${name}${operator.ifEmpty}` : `${name}=${encoded}`) : encoded);
    }
    return parts.length ? operator.first + parts.join(operator.sep) : '';
  });
}
