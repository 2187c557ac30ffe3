import { useId } from 'react';
import type { ImportChoice, ImportReportData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

type Clash = ImportReportData['clashes'][number];

interface Props {
  readonly clashes: readonly Clash[];
  /** The person's choice per clash (by the name in the file); a clash without one is skipped. */
  readonly choices: Readonly<Record<string, ImportChoice>>;
  readonly busy: boolean;
  readonly onChoice: (name: string, choice: ImportChoice) => void;
}

/**
 * The servers whose names are already taken here by a different server: for each, what both run,
 * and the person's choice — leave it out (the default: nothing of theirs changes), or import it
 * under another name (a free one is suggested). Never an overwrite.
 */
export function ImportClashes({ clashes, choices, busy, onChoice }: Props) {
  const id = useId();
  if (clashes.length === 0) return null;
  return (
    <div className="import-clashes" role="group" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Already here, with a different configuration</h4>
      <p className="muted">Yours stay as they are. Choose for each whether to leave the file&apos;s server out or add it under another name.</p>
      <ul className="import-clashes__list">
        {clashes.map((clash) => {
          const choice = choices[clash.name] ?? { action: 'skip' };
          const renaming = choice.action === 'rename';
          const typed = renaming ? (choice.name ?? clash.renamedTo ?? clash.suggestedName ?? '') : (clash.suggestedName ?? '');
          const group = `${id}-${clash.name}`;
          return (
            <li key={clash.name} className="import-clashes__item">
              <fieldset className="import-clashes__choice">
                <legend>
                  <strong>{visibleText(clash.name)}</strong>
                </legend>
                <dl className="facts import-clashes__facts">
                  <dt>Yours runs</dt>
                  <dd>
                    <code>{visibleText(clash.existingTarget ?? '')}</code>
                  </dd>
                  <dt>The file&apos;s runs</dt>
                  <dd>
                    <code>{visibleText(clash.incomingTarget ?? '')}</code>
                  </dd>
                </dl>
                <div className="import-clashes__options">
                  <label className="schema-form__check">
                    <input type="radio" name={group} checked={!renaming} disabled={busy} onChange={() => onChoice(clash.name, { action: 'skip' })} />
                    <span>Skip it</span>
                  </label>
                  <label className="schema-form__check">
                    <input type="radio" name={group} checked={renaming} disabled={busy} onChange={() => onChoice(clash.name, { action: 'rename', name: typed })} />
                    <span>Import it as</span>
                  </label>
                  <input
                    className="input input--code import-clashes__name"
                    aria-label={`New name for ${clash.name}`}
                    value={typed}
                    disabled={busy || !renaming}
                    spellCheck={false}
                    aria-invalid={clash.problem ? true : undefined}
                    aria-describedby={clash.problem ? `${group}-problem` : undefined}
                    onChange={(e) => onChoice(clash.name, { action: 'rename', name: e.target.value })}
                  />
                </div>
                {renaming && clash.problem ? (
                  <p className="field__error" id={`${group}-problem`}>
                    {clash.problem}
                  </p>
                ) : null}
              </fieldset>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
