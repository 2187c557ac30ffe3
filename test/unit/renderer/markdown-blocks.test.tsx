/**
 * A streaming answer is rendered block by block (only its open last block parsed again as text
 * arrives); at every point of the stream, and at its end, the page must be exactly what parsing
 * the whole text gives. Each sample is streamed in uneven pieces, so pieces end mid-line, mid-fence
 * and mid-table, and each step's markup is compared with the whole text's.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_PARSE, Markdown, markdownParses } from '../../../renderer/src/features/chat/Markdown';
import { splitBlocks } from '../../../renderer/src/features/chat/markdown-blocks';

const SAMPLES: Readonly<Record<string, string>> = {
  'code fences': [
    'Before the code:',
    '```ts',
    'const a = 1;',
    '',
    '# not a heading',
    '- not a list',
    '```',
    '',
    '~~~',
    'tilde fence with ``` inside',
    '~~~',
    '',
    '    indented code',
    '    more',
    '',
    'After, then a fence never closed:',
    '````py',
    'print("open")',
  ].join('\n'),
  'nested lists': [
    '- one',
    '  - one.a',
    '    1. deep',
    '    2. deeper',
    '  - one.b',
    '- two',
    '  continued lazily',
    'lazy line',
    '',
    '1. ordered',
    '2. second',
    '   - mixed',
    '',
    '* other marker',
  ].join('\n'),
  'lists with blank lines': [
    '- loose one',
    '',
    '- loose two',
    '',
    '  second paragraph of two',
    '',
    '',
    '- after two blank lines',
    '',
    'A paragraph.',
    '',
    '3. starts at three',
    '',
    '4. loose',
    '- [ ] task',
    '- [x] done',
  ].join('\n'),
  tables: [
    'Intro line',
    '| a | b |',
    '|---|:-:|',
    '| 1 | 2 |',
    '| 3 |',
    'not a row',
    '',
    '| only header |',
    '| --- |',
    '',
    '| pipe | in `a|b` code |',
    '|-|-|',
    '| x | y |',
  ].join('\n'),
  'block quotes': [
    '> quoted',
    'lazy continuation',
    '> > nested',
    '>',
    '> - list in quote',
    '',
    '> second quote',
    '',
    '> ```',
    '> code in quote',
  ].join('\n'),
  headings: [
    '# One',
    'para',
    '#not heading',
    '## Two ##',
    'Setext one',
    '===',
    'Setext two',
    '---',
    '',
    '***',
    'para',
    '#',
    '###### six',
  ].join('\n'),
  'HTML-looking text': [
    '<div>',
    'raw *html* block',
    '</div>',
    '',
    'Inline <b>bold</b> and <script>alert(1)</script>',
    '<!-- comment -->',
    '',
    '<https://example.com> and a@b.co and www.example.org',
    '',
    '<img src=x onerror=alert(1)>',
    'text after',
  ].join('\n'),
  'definitions anywhere': [
    'A [link][ref] and a footnote[^1] before what they point to.',
    '',
    '- item with [ref]',
    '',
    '[ref]: https://example.com "Title"',
    '',
    '[^1]: The note.',
    '',
    'And more text.',
  ].join('\n'),
  'inline across lines': ['Some **bold', 'across** lines and `code', 'span` and [a', 'link](https://e.x).', '', 'Hard  ', 'break\\', 'end'].join('\n'),
};

const markup = (text: string, cacheKey?: string) => renderToStaticMarkup(<Markdown text={text} cacheKey={cacheKey} />);

/** The text as it grows, in pieces of the given sizes, taken in turn. */
function* prefixes(text: string, sizes: readonly number[]): Generator<string> {
  for (let at = 0, i = 0; at < text.length; i += 1) {
    at = Math.min(text.length, at + sizes[i % sizes.length]!);
    yield text.slice(0, at);
  }
}

describe('a streamed answer rendered block by block', () => {
  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(`renders as the whole text does at every step: ${name}`, () => {
      // A character at a time (every point a piece can end at), then in uneven pieces as a model's tokens are.
      for (const sizes of [[1], [1, 3, 2, 7, 4, 11, 1, 5]]) {
        const key = `stream ${name} ${sizes.join()}`;
        for (const text of prefixes(sample, sizes)) expect(markup(text, key), JSON.stringify(text)).toBe(markup(text));
        expect(markup(sample, key)).toBe(markup(sample));
      }
    });
  }

  it('parses each finished block once: an update re-parses only the open block', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => `## Step ${i}\n\nText of step ${i}.\n\n\`\`\`ts\nconst step = ${i};\n\`\`\`\n`);
    const text = blocks.join('\n');
    markup('## Step 0', 'long');
    markup(text, 'long');
    const before = markdownParses();
    const parses = () => ({ length: markdownParses() - before });
    markup(`${text}\nA new paragraph, still being writ`, 'long');
    // The paragraph's line is unfinished, so the code block before it stays open: one parse of the two.
    expect(parses()).toHaveLength(1);
    markup(`${text}\nA new paragraph, still being written.\n`, 'long');
    // The line is complete: the code block is finished (parsed once more, for good), the paragraph open.
    expect(parses()).toHaveLength(3);
    markup(`${text}\nA new paragraph, still being written.\nMore`, 'long');
    expect(parses()).toHaveLength(4);
    // Shown again unchanged: nothing parsed.
    markup(`${text}\nA new paragraph, still being written.\nMore`, 'long');
    expect(parses()).toHaveLength(4);
    // Each parse's User Timing entry was cleared once written: the page's timeline does not keep one per message for good.
    expect(performance.getEntriesByName(MARKDOWN_PARSE)).toHaveLength(0);
  });

  it('keeps a block open while the line after it is unfinished', () => {
    // "#" alone would be a heading, but "#x" continues the paragraph: the paragraph is not finished yet.
    expect(splitBlocks('para\n#').finished).toEqual([]);
    // A complete "#" line is an empty heading, whatever follows: the paragraph before it is finished.
    expect(splitBlocks('para\n#\n').finished).toEqual(['para\n']);
    expect(splitBlocks('para\n#\nmore').finished).toEqual(['para\n']);
    expect(splitBlocks('para\n#\nmore\n').finished).toEqual(['para\n', '#\n']);
    expect(splitBlocks('a\n\n```\ncode\n\nstill code\n').finished).toEqual([]);
    expect(splitBlocks('a\n\nb\n\nc').finished).toEqual(['a\n\n']);
  });
});
