import { useId, useMemo, useRef, useState, type RefObject } from 'react';
import { visibleText } from '../../lib/visible-text';
import { Modal } from '../consent/Modal';
import { OPENABLE_SCHEMES, openExternally, reviewUrl } from '../elicitation/url-safety';
import { UrlView } from '../elicitation/UrlView';
import { saveFile, type PersonAnswer, type PersonRequest } from './person-requests';

interface Props {
  /** The server whose app asks (the app's own name is its server's words, so the server is named). */
  readonly server: string;
  readonly request: PersonRequest;
  readonly onAnswer: (answer: PersonAnswer) => void;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The person decides what an app may do outside its frame: open a link (https only, the real
 * address shown with its site highlighted), add a message to the conversation (the exact text
 * shown), or save files (each where the person picks). Closing the dialog is a no.
 */
export function AppRequestDialog({ server, request, onAnswer }: Props) {
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const no = () => onAnswer({ allowed: false });
  return (
    <Modal labelledBy={titleId} onCancel={no} initialFocus={cancelRef} className="app-request">
      {request.kind === 'link' ? <LinkBody titleId={titleId} server={server} url={request.url} cancelRef={cancelRef} onAnswer={onAnswer} /> : null}
      {request.kind === 'message' ? (
        <>
          <header className="modal__header">
            <h2 id={titleId} className="modal__title">
              Add the {server} app’s message to the conversation?
            </h2>
          </header>
          <div className="modal__body">
            <p className="consent__lead">The app wrote this message. If you send it, the model answers it as if you had written it.</p>
            <pre className="app-request__message">{visibleText(request.text)}</pre>
            {request.omitted > 0 ? <p className="muted">{request.omitted} part(s) that are not text were left out.</p> : null}
          </div>
          <footer className="modal__actions">
            <button type="button" className="button" ref={cancelRef} onClick={no}>
              Don’t send
            </button>
            <button type="button" className="button button--primary" onClick={() => onAnswer({ allowed: true })}>
              Send message
            </button>
          </footer>
        </>
      ) : null}
      {request.kind === 'download' ? <DownloadBody titleId={titleId} server={server} request={request} cancelRef={cancelRef} onAnswer={onAnswer} /> : null}
    </Modal>
  );
}

interface LinkProps {
  readonly titleId: string;
  readonly server: string;
  readonly url: string;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  readonly onAnswer: (answer: PersonAnswer) => void;
}

function LinkBody({ titleId, server, url, cancelRef, onAnswer }: LinkProps) {
  const review = useMemo(() => reviewUrl(url, OPENABLE_SCHEMES), [url]);
  return (
    <>
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Open a link from the {server} app?
        </h2>
      </header>
      <div className="modal__body">
        <p className="consent__lead">The app asks to open this address in your browser. Only https links are opened.</p>
        <UrlView review={review} label="Link" />
      </div>
      <footer className="modal__actions">
        <button type="button" className="button" ref={cancelRef} onClick={() => onAnswer({ allowed: false })}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!review.openable}
          onClick={() => onAnswer({ allowed: openExternally(review) })}
        >
          Open in browser
        </button>
      </footer>
    </>
  );
}

interface DownloadProps {
  readonly titleId: string;
  readonly server: string;
  readonly request: Extract<PersonRequest, { kind: 'download' }>;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  readonly onAnswer: (answer: PersonAnswer) => void;
}

function DownloadBody({ titleId, server, request, cancelRef, onAnswer }: DownloadProps) {
  const [saved, setSaved] = useState<ReadonlySet<number>>(new Set());
  const [problem, setProblem] = useState<string | undefined>();
  const save = async (index: number) => {
    setProblem(undefined);
    try {
      if (await saveFile(request.files[index]!)) setSaved((current) => new Set(current).add(index));
    } catch (error) {
      setProblem(`Could not save: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <>
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Save {request.files.length === 1 ? 'a file' : 'files'} from the {server} app?
        </h2>
      </header>
      <div className="modal__body">
        <p className="consent__lead">You choose where each file goes. Nothing is saved unless you pick a place.</p>
        <ul className="app-request__files">
          {request.files.map((file, index) => (
            <li key={`${file.name}:${index}`}>
              <span>
                <strong>{visibleText(file.name)}</strong> <span className="muted">{visibleText(file.mimeType)}, {size(file.data.size)}</span>
              </span>
              <button type="button" className="button button--small" disabled={saved.has(index)} onClick={() => void save(index)}>
                {saved.has(index) ? 'Saved' : 'Save…'}
              </button>
            </li>
          ))}
        </ul>
        {request.links.length > 0 ? (
          <p className="muted">
            The app also named {request.links.length} link(s) to download; Harbor does not fetch them for an app. Ask the app for the file itself.
          </p>
        ) : null}
        {problem ? (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <footer className="modal__actions">
        <button type="button" className="button" ref={cancelRef} onClick={() => onAnswer({ allowed: saved.size > 0, saved: saved.size })}>
          {saved.size > 0 ? 'Done' : 'Cancel'}
        </button>
      </footer>
    </>
  );
}
