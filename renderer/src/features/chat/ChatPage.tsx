// First: the page's frame comes before the styles of what it holds (see chat-page.css).
import './chat-page.css';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useHarbor } from '../../app/services';
import { readPersisted, usePersisted, writePersisted } from '../../lib/persisted';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { MountInTransition } from '../../ui/MountInTransition';
import { ChatController, type Attachment, type FileAttachment, type OpenMemory } from './chat-controller';
// The message list before the composer: so their styles keep their order (composer.css last).
import { MessageList } from './MessageList';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { ContextMeter } from './ContextMeter';
import { ConversationList } from './ConversationList';
import { isRunning, rowsOf } from './conversation-model';
import { LinkCheckDialog } from './LinkCheckDialog';
import { ChatApprovalsContext, LooseApprovals, useChatApprovals } from './chat-approvals';
import { LinkOpenerContext } from './link-opener';
import { MessageCommandsContext, type MessageCommands } from './MessageActions';
import { ModelPicker } from './ModelPicker';
import { ModelSetup, NO_MODEL_REASON } from './ModelSetup';
import { ProblemCard } from './ProblemCard';
import { ToolsetPicker } from './ToolsetPicker';
import { useNarrow } from './use-narrow';
import { WholeResultsContext, wholeResultsOf } from './whole-results';
import { useChatContext, useChatStatus } from './use-chat-info';
import { AppConversationContext, PartialInputsContext } from '../apps/app-conversation';
import { useChatRequests } from '../palette/chat-requests';

/**
 * Below this width of the chat area the conversations list is a drawer over it: about 1200 px of
 * window beside the open navigation, 1050 px beside the rail (at 1000×700 the navigation and the
 * list took 45 % of it). Collapsing the navigation must give the messages the room, not the list.
 */
const DRAWER_BELOW_PX = 1000;
const LAST_CONVERSATION = 'chat.lastConversation';

const lastConversation: OpenMemory = {
  read: () => readPersisted<string | undefined>(LAST_CONVERSATION, undefined),
  write: (id) => writePersisted(LAST_CONVERSATION, id),
};

export function ChatPage() {
  const api = useHarbor();
  const [controller] = useState(() => new ChatController(api, lastConversation));
  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.snapshot);
  // The palette's and the shortcuts' "New chat" and "open this conversation".
  // A new chat puts the cursor in its composer.
  const [composerFocus, setComposerFocus] = useState(0);
  useChatRequests(
    useCallback(
      (request) => {
        if (request.kind !== 'new') return void controller.open(request.id);
        controller.newConversation();
        setComposerFocus((n) => n + 1);
      },
      [controller],
    ),
  );
  const [status, reloadStatus] = useChatStatus();
  const [link, setLink] = useState<string | undefined>();
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [files, setFiles] = useState<FileAttachment[]>([]);
  const [draftToolset, setDraftToolset] = useState<string | undefined>();
  const [collapsed, setCollapsed] = usePersisted('chat.conversationsHidden', false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [chatRef, narrow] = useNarrow<HTMLDivElement>(DRAWER_BELOW_PX);

  const loaded = state.conversation.status === 'ready' ? state.conversation.value : undefined;
  // The list has the Host's title (made from the first message) before the open conversation is reloaded.
  const listed = state.list.status === 'ready' ? state.list.value.find((c) => c.id === state.openId)?.title : undefined;
  const conversation = useMemo(() => (loaded && listed && listed !== loaded.title ? { ...loaded, title: listed } : loaded), [loaded, listed]);
  const running = isRunning(conversation);
  const rows = useMemo(() => (conversation ? rowsOf(conversation) : []), [conversation]);
  // The meter counts the conversation's history: measured again when a turn ends.
  const [context, reloadContext] = useChatContext(state.openId, `${conversation?.turns.length ?? 0}:${running}`);
  const callIds = useMemo(() => new Set(rows.flatMap((row) => (row.kind === 'item' && row.item.kind === 'toolCall' ? [row.item.call.id] : []))), [rows]);
  const approvals = useChatApprovals(state.openId, callIds);
  const configured = status.status === 'ready' && status.value.configured;
  const sidebarShown = narrow ? drawerOpen : !collapsed;
  const listId = 'chat-conversations';

  const attachFromResult = useCallback(
    (server: string, uri: string, title: string) =>
      setAttachments((current) => (current.some((a) => a.server === server && a.uri === uri) ? current : [...current, { server, uri, label: title }])),
    [],
  );
  // Apps in this conversation may add a message to it (after the person approved the text).
  const openId = state.openId;
  const appConversation = useMemo(
    () =>
      openId
        ? {
            id: openId,
            send: async (text: string) => {
              const snapshot = controller.snapshot();
              if (snapshot.openId !== openId || (snapshot.conversation.status === 'ready' && isRunning(snapshot.conversation.value))) return false;
              return controller.send(text);
            },
          }
        : undefined,
    [openId, controller],
  );
  const stopTurn = useCallback(() => void controller.stopTurn(), [controller]);
  const modelChanged = useCallback(() => {
    reloadStatus();
    reloadContext();
  }, [reloadContext, reloadStatus]);
  const busy = running || state.sending;
  const commands = useMemo<MessageCommands>(
    () => ({
      regenerate: (turnId) => void controller.regenerate(turnId),
      edit: (turnId, text) => controller.edit(turnId, text),
      switchBranch: (turnId) => void controller.switchBranch(turnId),
      busy,
    }),
    [controller, busy],
  );
  // Large results of the conversation shown, fetched whole when a card or app needs them.
  const shownId = conversation?.id;
  const wholeResults = useMemo(() => (shownId ? wholeResultsOf(api, shownId) : undefined), [api, shownId]);
  const openConversation = (id: string) => {
    setDrawerOpen(false);
    void controller.open(id);
  };
  const startNew = () => {
    setDrawerOpen(false);
    controller.newConversation();
  };

  return (
    <LinkOpenerContext.Provider value={setLink}>
      <h1 id="page-title" tabIndex={-1} className="visually-hidden">
        Chat
      </h1>
      <div ref={chatRef} className={`chat${sidebarShown ? '' : ' chat--no-list'}${narrow ? ' chat--narrow' : ''}`}>
        {sidebarShown ? (
          <ConversationList
            id={listId}
            drawer={narrow}
            list={state.list}
            openId={state.openId}
            onOpen={openConversation}
            onNew={startNew}
            onRetry={() => void controller.refreshList()}
          />
        ) : null}
        {narrow && drawerOpen ? <div className="chat__scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} /> : null}
        <section
          className="chat__main"
          aria-label="Conversation"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && narrow && drawerOpen) setDrawerOpen(false);
          }}
        >
          <ChatHeader
            key={`header:${conversation?.id ?? ''}`}
            conversation={conversation}
            toolset={state.list.status === 'ready' ? state.list.value.find((c) => c.id === state.openId)?.toolset : undefined}
            running={running}
            sidebar={{ shown: sidebarShown, controls: listId, toggle: () => (narrow ? setDrawerOpen((v) => !v) : setCollapsed(!collapsed)) }}
            onNew={startNew}
            onRename={(title) => (conversation ? controller.rename(conversation.id, title) : Promise.resolve(false))}
            onDelete={() => (conversation ? controller.remove(conversation.id) : Promise.resolve(false))}
            onExport={(format) => (conversation ? controller.exportAs(conversation.id, format) : Promise.resolve(false))}
          >
            {status.status === 'ready' && status.value.configured ? <ModelPicker status={status.value} onChanged={modelChanged} /> : null}
            <ContextMeter state={context} />
          </ChatHeader>
          {status.status === 'ready' && !status.value.configured ? <ModelSetup status={status.value} onChanged={modelChanged} /> : null}
          {status.status === 'error' ? <ErrorMessage error={status.error} onRetry={reloadStatus} /> : null}

          <div className="chat__body">
            {state.conversation.status === 'loading' ? <Loading label="Opening the conversation…" /> : null}
            {state.conversation.status === 'error' ? <ErrorMessage error={state.conversation.error} /> : null}
            {conversation && rows.length === 0 && configured ? (
              <div className="chat__welcome">
                <p className="chat__welcome-title">A new conversation</p>
                <p>
                  Ask something. The model can use your connected servers’ tools; each call asks you first unless you allowed it. Type “/” for prompts, or
                  attach files and resources.
                </p>
              </div>
            ) : null}
            {conversation && rows.length > 0 ? (
              <MessageCommandsContext.Provider value={commands}>
                <AppConversationContext.Provider value={appConversation}>
                  <PartialInputsContext.Provider value={state.partial}>
                    <ChatApprovalsContext.Provider value={approvals}>
                      <WholeResultsContext.Provider value={wholeResults}>
                        <MountInTransition key={`messages:${state.openId ?? 'new'}`} fallback={<Loading label="Opening the conversation…" />}>
                          <MessageList rows={rows} progress={state.progress} onAttach={attachFromResult} onStop={stopTurn} />
                        </MountInTransition>
                      </WholeResultsContext.Provider>
                    </ChatApprovalsContext.Provider>
                  </PartialInputsContext.Provider>
                </AppConversationContext.Provider>
              </MessageCommandsContext.Provider>
            ) : null}
            <LooseApprovals approvals={approvals} />
          </div>

          {state.error ? <ProblemCard error={state.error} onDismiss={() => controller.dismissError()} /> : null}
          <ToolsetPicker
            conversationId={state.openId}
            stored={state.list.status === 'ready' ? state.list.value.find((c) => c.id === state.openId)?.toolset : undefined}
            draft={draftToolset}
            onDraftChange={setDraftToolset}
            onSaved={() => void controller.refreshList()}
            disabled={running}
          />
          <Composer
            // Off once the Host said there is no model (not while it is being asked).
            disabled={status.status === 'ready' && !configured}
            disabledReason={NO_MODEL_REASON}
            running={running}
            sending={state.sending}
            attachments={attachments}
            onAttachmentsChange={setAttachments}
            files={files}
            onFilesChange={setFiles}
            model={{ name: status.status === 'ready' ? (status.value.model?.model ?? 'configured') : 'configured', images: status.status === 'ready' && status.value.images === true }}
            onSend={(text, attached, withFiles) => controller.send(text, attached, withFiles, state.openId ? undefined : draftToolset)}
            onStop={stopTurn}
            focusRequest={composerFocus}
          />
        </section>
      </div>
      {link ? <LinkCheckDialog href={link} onClose={() => setLink(undefined)} /> : null}
    </LinkOpenerContext.Provider>
  );
}
