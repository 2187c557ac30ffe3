// First: the page's frame comes before the styles of what it holds (see chat-page.css).
import './chat-page.css';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useHarbor } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { ChatController, type Attachment } from './chat-controller';
// The message list before the composer: so their styles keep their order (composer.css last).
import { MessageList } from './MessageList';
import { Composer } from './Composer';
import { ContextMeter } from './ContextMeter';
import { ConversationHeader } from './ConversationHeader';
import { ConversationList } from './ConversationList';
import { isRunning, rowsOf } from './conversation-model';
import { LinkCheckDialog } from './LinkCheckDialog';
import { LinkOpenerContext } from './Markdown';
import { ModelPicker } from './ModelPicker';
import { ModelSetup } from './ModelSetup';
import { useChatContext, useChatStatus } from './use-chat-info';

export function ChatPage() {
  const api = useHarbor();
  const [controller] = useState(() => new ChatController(api));
  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.snapshot);
  const [status, reloadStatus] = useChatStatus();
  const [context, reloadContext] = useChatContext();
  const [link, setLink] = useState<string | undefined>();
  const [attachments, setAttachments] = useState<Attachment[]>([]);

  const loaded = state.conversation.status === 'ready' ? state.conversation.value : undefined;
  // The list has the Host's title (made from the first message) before the open conversation is reloaded.
  const listed = state.list.status === 'ready' ? state.list.value.find((c) => c.id === state.openId)?.title : undefined;
  const conversation = useMemo(() => (loaded && listed && listed !== loaded.title ? { ...loaded, title: listed } : loaded), [loaded, listed]);
  const running = isRunning(conversation);
  const rows = useMemo(() => (conversation ? rowsOf(conversation) : []), [conversation]);
  const configured = status.status === 'ready' && status.value.configured;

  const attachFromResult = useCallback(
    (server: string, uri: string, title: string) =>
      setAttachments((current) => (current.some((a) => a.server === server && a.uri === uri) ? current : [...current, { server, uri, label: title }])),
    [],
  );
  const stopTurn = useCallback(() => void controller.stopTurn(), [controller]);
  const modelChanged = useCallback(() => {
    reloadStatus();
    reloadContext();
  }, [reloadContext, reloadStatus]);

  return (
    <LinkOpenerContext.Provider value={setLink}>
      <PageHeader title="Chat">Talk with a model that can use your servers’ tools — with you approving each action.</PageHeader>
      <div className="chat">
        <ConversationList
          list={state.list}
          openId={state.openId}
          onOpen={(id) => void controller.open(id)}
          onNew={() => controller.newConversation()}
          onRetry={() => void controller.refreshList()}
        />
        <section className="chat__main" aria-label="Conversation">
          <div className="chat__bar">
            {status.status === 'ready' && status.value.configured ? <ModelPicker status={status.value} onChanged={modelChanged} /> : null}
            <ContextMeter state={context} />
          </div>
          {status.status === 'ready' && !status.value.configured ? <ModelSetup status={status.value} onChanged={modelChanged} /> : null}
          {status.status === 'error' ? <ErrorMessage error={status.error} onRetry={reloadStatus} /> : null}

          {conversation ? (
            <ConversationHeader
              key={`header:${conversation.id}`}
              conversation={conversation}
              running={running}
              onRename={(title) => controller.rename(conversation.id, title)}
              onDelete={() => controller.remove(conversation.id)}
              onExport={(format) => controller.exportAs(conversation.id, format)}
            />
          ) : null}

          {state.conversation.status === 'loading' ? <Loading label="Opening the conversation…" /> : null}
          {state.conversation.status === 'error' ? <ErrorMessage error={state.conversation.error} /> : null}
          {conversation && rows.length === 0 ? (
            <EmptyState title="A new conversation">
              <p>
                Ask something. The model can use your connected servers’ tools; each call asks you first unless you allowed it. Type “/” for prompts, or
                attach a resource.
              </p>
            </EmptyState>
          ) : null}
          {conversation && rows.length > 0 ? (
            <MessageList key={`messages:${state.openId ?? 'new'}`} rows={rows} progress={state.progress} onAttach={attachFromResult} onStop={stopTurn} />
          ) : null}

          {state.error ? (
            <div className="chat__error">
              <ErrorMessage error={state.error} />
              <button type="button" className="button button--small" onClick={() => controller.dismissError()}>
                Dismiss
              </button>
            </div>
          ) : null}
          <Composer
            disabled={!configured}
            running={running}
            sending={state.sending}
            attachments={attachments}
            onAttachmentsChange={setAttachments}
            onSend={(text, attached) => controller.send(text, attached)}
            onStop={() => void controller.stopTurn()}
          />
        </section>
      </div>
      {link ? <LinkCheckDialog href={link} onClose={() => setLink(undefined)} /> : null}
    </LinkOpenerContext.Provider>
  );
}
