import { Check, ChevronLeft, ChevronRight, Copy, Pencil, RefreshCw } from 'lucide-react';
import { createContext, useContext } from 'react';
import { IconButton } from './IconButton';
import { useCopy } from '../../ui/use-copy';

/** What a message's buttons do: given once by the page, read by every row. */
export interface MessageCommands {
  readonly regenerate: (turnId: string) => void;
  readonly edit: (turnId: string, text: string) => Promise<boolean>;
  readonly switchBranch: (turnId: string) => void;
  /** A turn is running (or being started): nothing can branch meanwhile. */
  readonly busy: boolean;
}

export const MessageCommandsContext = createContext<MessageCommands | null>(null);

export function useMessageCommands(): MessageCommands | null {
  return useContext(MessageCommandsContext);
}

/** Copy: the message's text (Markdown as the model wrote it). */
export function CopyAction({ text }: { readonly text: string }) {
  const [status, copy] = useCopy(text);
  return (
    <>
      <IconButton icon={status === 'copied' ? Check : Copy} label="Copy" tooltip={status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : 'Copy'} onClick={copy} />
      <span className="visually-hidden" aria-live="polite">
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : ''}
      </span>
    </>
  );
}

export function RegenerateAction({ turnId }: { readonly turnId: string }) {
  const commands = useMessageCommands();
  if (!commands) return null;
  return <IconButton icon={RefreshCw} label="Regenerate" disabled={commands.busy} onClick={() => commands.regenerate(turnId)} />;
}

export function EditAction({ onEdit }: { readonly onEdit: () => void }) {
  const commands = useMessageCommands();
  if (!commands) return null;
  return <IconButton icon={Pencil} label="Edit" disabled={commands.busy} onClick={onEdit} />;
}

/** ‹ 2/3 ›: the versions of this message (edits and regenerations), one shown at a time. */
export function BranchSwitcher({ turnId, siblings }: { readonly turnId: string; readonly siblings: readonly string[] }) {
  const commands = useMessageCommands();
  const index = siblings.indexOf(turnId);
  if (!commands || index < 0) return null;
  const go = (to: number) => commands.switchBranch(siblings[to]!);
  return (
    <span className="branch-switcher" role="group" aria-label="Versions of this message">
      <IconButton icon={ChevronLeft} label="Previous version" disabled={commands.busy || index === 0} onClick={() => go(index - 1)} />
      <span className="branch-switcher__count" aria-live="polite">
        {index + 1}/{siblings.length}
      </span>
      <IconButton icon={ChevronRight} label="Next version" disabled={commands.busy || index === siblings.length - 1} onClick={() => go(index + 1)} />
    </span>
  );
}
