// @vitest-environment happy-dom
/**
 * Spoof-proof text in the dialogs the person decides in: visibleText (bidi controls, invisible and
 * control characters shown as ⟨U+…⟩, edge spaces as ␣), and every consent / launch / link /
 * elicitation dialog showing server names, tool names, command lines, arguments and addresses
 * through it: whatever a server or a link puts there, no character acts unseen in the dialog.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../../preload/contract';
import { LinkCheckDialog } from '../../../renderer/src/features/chat/LinkCheckDialog';
import { ConsentDialog } from '../../../renderer/src/features/consent/ConsentDialog';
import { ElicitationDialog } from '../../../renderer/src/features/elicitation/ElicitationDialog';
import { visibleText } from '../../../renderer/src/lib/visible-text';

afterEach(cleanup);

/** Anything that would act unseen if it reached the page. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u00A0]/u;
/** The page's text without the line breaks and tabs multi-line blocks keep on purpose. */
const textOf = (element: Element) => (element.textContent ?? '').replace(/[\n\t]/g, '');

describe('visibleText', () => {
  it.each([
    ['bidi override', 'report\u202Etxt.exe', 'report⟨U+202E⟩txt.exe'],
    ['bidi embeddings, isolates and marks', '\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj\u061Ck', '⟨U+202A⟩a⟨U+202B⟩b⟨U+202C⟩c⟨U+202D⟩d⟨U+2066⟩e⟨U+2067⟩f⟨U+2068⟩g⟨U+2069⟩h⟨U+200E⟩i⟨U+200F⟩j⟨U+061C⟩k'],
    ['zero-width and invisible characters', 'g\u200Bi\u200Ct\u200Dh\u2060u\uFEFFb\u00ADx', 'g⟨U+200B⟩i⟨U+200C⟩t⟨U+200D⟩h⟨U+2060⟩u⟨U+FEFF⟩b⟨U+00AD⟩x'],
    ['tag characters (hidden ASCII)', 'ok\u{E0069}\u{E0067}\u{E007F}', 'ok⟨U+E0069⟩⟨U+E0067⟩⟨U+E007F⟩'],
    ['C0, DEL and C1 controls, line separators', 'a\u0000b\u001Bc\u007Fd\u0085e\u009Bf\u2028g\u2029h\ri\nj\tk', 'a⟨U+0000⟩b⟨U+001B⟩c⟨U+007F⟩d⟨U+0085⟩e⟨U+009B⟩f⟨U+2028⟩g⟨U+2029⟩h⟨U+000D⟩i⟨U+000A⟩j⟨U+0009⟩k'],
    ['spaces that are not plain spaces, variation selectors, Hangul fillers', 'a\u00A0b\u3000c\uFE00d\u3164e', 'a⟨U+00A0⟩b⟨U+3000⟩c⟨U+FE00⟩d⟨U+3164⟩e'],
    ['leading and trailing spaces', '  github ', '␣␣github␣'],
  ])('shows %s', (_what, input, shown) => {
    expect(visibleText(input)).toBe(shown);
  });

  it('leaves ordinary text, inner spaces, other scripts and emoji alone', () => {
    for (const text of ['github', 'Docs search', 'npx -y @scope/server --port=8080', 'Zürich café', 'שלום', 'مرحبا', '日本語', '⚠️ 👨‍💻 ✅']) {
      expect(visibleText(text)).toBe(text);
    }
  });

  it('multi-line text keeps line breaks, tabs and indentation, and still shows hidden characters', () => {
    expect(visibleText('{\n  "path": "a\u202Eb"\r\n}\t', { multiline: true })).toBe('{\n  "path": "a⟨U+202E⟩b"\n}\t');
    expect(visibleText('  indented line  ', { multiline: true })).toBe('  indented line  ');
  });
});

const inFive = () => Date.now() + 5 * 60_000;

/** A consent request as the Host sends it; `extra` holds the text under test. */
function consentRequest(extra: Partial<ConsentRequest>): ConsentRequest {
  return { id: 'r', kind: 'tool', server: 'notes', trusted: false, deadline: inFive(), options: ['once', 'deny'], ...extra };
}

describe('every decision dialog shows hidden characters instead of letting them act', () => {
  it('tool consent: server and tool names, title, description and arguments', () => {
    const request = consentRequest({
      server: 'github ',
      tool: { name: 'read\u202Eetirw', title: 'Read\u200B files', description: 'Reads.\u{E0041}\u{E0042}\nSecond line' },
      arguments: { path: '/home/me/\u2066notes\u2069', mode: 'r\u200Dw' },
    });
    render(<ConsentDialog request={request} waiting={0} onDecide={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    // The heading names the real tool (#27.13); the server's title follows it, as the server's words.
    expect(within(dialog).getByRole('heading', { name: 'Allow github␣ to run “read⟨U+202E⟩etirw”?' })).toBeTruthy();
    expect(within(dialog).getByText('github␣')).toBeTruthy();
    expect(dialog.querySelector('.consent__tool-name')!.textContent).toBe('read⟨U+202E⟩etirw');
    expect(dialog.querySelector('.consent__tool-name')!.parentElement!.textContent).toBe('read⟨U+202E⟩etirw — titled “Read⟨U+200B⟩ files” by the server');
    expect(dialog.querySelector('.consent__description')!.textContent).toBe('Reads.⟨U+E0041⟩⟨U+E0042⟩\nSecond line');
    const args = within(dialog).getByRole('region', { name: 'Arguments' }).textContent!;
    expect(args).toContain('"/home/me/⟨U+2066⟩notes⟨U+2069⟩"');
    expect(args).toContain('"r⟨U+200D⟩w"');
    expect(textOf(dialog)).not.toMatch(UNSEEN);
  });

  it('a changed tool (rug pull): the diff lines too', () => {
    const request = consentRequest({
      tool: { name: 'save', description: 'Saves.\u202E' },
      arguments: {},
      stale: { before: { description: 'Saves.' }, after: { description: 'Saves.\u202E' }, changed: ['description'] },
    });
    render(<ConsentDialog request={request} waiting={0} onDecide={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('list', { name: 'Changes to description' }).textContent).toContain('Saves.⟨U+202E⟩');
    expect(textOf(dialog)).not.toMatch(UNSEEN);
  });

  it('launch and harbor:// link consent: the command line, working folder and variable names', () => {
    const request = consentRequest({
      kind: 'launch',
      server: 'files',
      options: ['once', 'always', 'deny'],
      launch: { commandLine: 'npx -y safe-server \u202E"fdp.exe" ', cwd: '/tmp/\u200Bwork', envNames: ['API\u200BKEY'] },
    });
    render(<ConsentDialog request={request} waiting={0} onDecide={() => undefined} />);
    const command = within(screen.getByRole('dialog')).getByRole('region', { name: 'Command' });
    expect(command.querySelector('pre')!.textContent).toBe('npx -y safe-server ⟨U+202E⟩"fdp.exe"␣');
    expect(command.textContent).toContain('/tmp/⟨U+200B⟩work');
    expect(command.textContent).toContain('API⟨U+200B⟩KEY');
    expect(textOf(screen.getByRole('dialog'))).not.toMatch(UNSEEN);
  });

  it('elicitation: the asking server, what was running and its message', () => {
    render(
      <ElicitationDialog
        request={{ id: 'e1', server: 'bank\u00A0', mode: 'url', message: 'Sign in\u2028to continue\u{E0020}', url: 'https://example.com/login', during: '“pay\u202Eyap” in the chat', deadline: inFive() }}
        waiting={0}
        onAnswer={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: '“bank⟨U+00A0⟩” asks you to open a web page' })).toBeTruthy();
    expect(dialog.textContent).toContain('while running “pay⟨U+202E⟩yap” in the chat');
    expect(dialog.querySelector('.elicitation__message')!.textContent).toBe('Sign in⟨U+2028⟩to continue⟨U+E0020⟩');
    expect(textOf(dialog)).not.toMatch(UNSEEN);
  });

  it('a link from the conversation: an address that does not parse, shown as written', () => {
    render(<LinkCheckDialog href={'https://exa mple.com/\u202Egpj.exe'} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('https://exa mple.com/⟨U+202E⟩gpj.exe');
    expect(textOf(dialog)).not.toMatch(UNSEEN);
  });
});
