import type { ImportReportData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

interface Props {
  readonly entries: NonNullable<ImportReportData['codeLoadingEnv']>;
  readonly ticked: ReadonlySet<string>;
  readonly onToggle: (name: string, on: boolean) => void;
}

/** The names among an import's variables that load code, once each (the Host allows them by name). */
export function codeLoadingNames(report: ImportReportData | undefined): string[] {
  return [...new Set((report?.codeLoadingEnv ?? []).map((v) => v.name))].sort();
}

/**
 * Variables of the imported servers that make a runtime load or fetch code (NODE_OPTIONS,
 * LD_PRELOAD…), each with its value, a warning naming them and a box per variable: the import is
 * offered only once every box is ticked, and the Host writes nothing for names not ticked.
 */
export function ImportEnvWarning({ entries, ticked, onToggle }: Props) {
  const names = [...new Set(entries.map((v) => v.name))].sort();
  return (
    <section className="import-preview__section" aria-label="Variables that load code">
      <p className="notice notice--warn" role="alert">
        Warning: {names.map((n) => visibleText(n)).join(', ')} {names.length === 1 ? 'makes' : 'make'} a server’s runtime load or fetch code you have not seen. Harbor imports only if you
        allow each one.
      </p>
      <ul className="install-plan__list">
        {entries.map((v) => (
          <li key={`${v.server}\u0000${v.name}`}>
            {visibleText(v.server)}:{' '}
            <code>
              {visibleText(v.name)}={visibleText(v.value)}
            </code>
          </li>
        ))}
      </ul>
      {names.map((name) => (
        <label key={name} className="schema-form__check">
          <input type="checkbox" checked={ticked.has(name)} onChange={(e) => onToggle(name, e.target.checked)} /> Allow {visibleText(name)} to be set
        </label>
      ))}
    </section>
  );
}
