import { useState, type ClipboardEvent } from 'react';
import { splitCommandLine } from './command-line';
import { readPastedServers, type PastedServer } from './pasted-servers';
import { formFromConfig, rowId, type ServerFormData } from './server-form-model';

/** What the last paste did, said under the Command field. */
export type PasteNote =
  | { readonly kind: 'split'; readonly program: string; readonly args: readonly string[]; readonly pasted: string }
  | { readonly kind: 'problem'; readonly text: string }
  | { readonly kind: 'filled'; readonly name: string | undefined };

interface Options {
  /** The Command input's id: a command line is split only when pasted there. */
  readonly commandId: string;
  readonly form: ServerFormData;
  readonly set: (patch: Partial<ServerFormData>) => void;
}

/**
 * Pasting into the add-server form: a whole command line into Command becomes the program and its
 * arguments (said, with Undo); a `mcpServers` snippet anywhere fills the form from its one server,
 * or lists its several (PastedServers). Any other paste is left alone.
 */
export function useFormPaste({ commandId, form, set }: Options) {
  const [note, setNote] = useState<PasteNote | undefined>();
  const [found, setFound] = useState<{ readonly text: string; readonly servers: readonly PastedServer[] } | undefined>();

  const fill = (server: PastedServer) => {
    const next = formFromConfig(server.name ?? form.name, server.config);
    set({ ...next, enabled: form.enabled, trusted: form.trusted });
    setNote({ kind: 'filled', name: server.name });
  };

  const onPaste = (event: ClipboardEvent<HTMLFormElement>) => {
    const text = event.clipboardData.getData('text/plain');
    const servers = readPastedServers(text);
    if (servers) {
      event.preventDefault();
      if (servers.length === 1) {
        setFound(undefined);
        fill(servers[0]!);
      } else {
        setNote(undefined);
        setFound({ text, servers });
      }
      return;
    }
    const target = event.target as HTMLInputElement;
    if (target.id !== commandId || form.args.length > 0 || !/\s/.test(text.trim())) return;
    // Only when the pasted line becomes the whole field: a word pasted into a longer value stays a word.
    if (target.value !== '' && !(target.selectionStart === 0 && target.selectionEnd === target.value.length)) return;
    const split = splitCommandLine(text.trim());
    if (!split.ok) {
      setNote({ kind: 'problem', text: split.problem });
      return;
    }
    const [program = '', ...args] = split.words;
    event.preventDefault();
    set({ command: program, args: args.map((value) => ({ id: rowId(), value })) });
    setNote({ kind: 'split', program, args, pasted: text.trim() });
  };

  /** Undo a split: the line as pasted, in Command, no arguments. */
  const undoSplit = () => {
    if (note?.kind !== 'split') return;
    set({ command: note.pasted, args: [] });
    setNote(undefined);
  };

  return { note, found, onPaste, fill, undoSplit, dismissFound: () => setFound(undefined), clearNote: () => setNote(undefined) };
}
