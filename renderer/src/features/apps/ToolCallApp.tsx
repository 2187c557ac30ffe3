import type { CallToolResult } from '@modelcontextprotocol/client';
import { useMemo, useState } from 'react';
import type { ChatToolCall } from '../../../../preload/contract';
import { AppFrame } from './AppFrame';
import { useAppConversation, usePartialInput } from './app-conversation';
import { useOnScreen } from './use-on-screen';
import { useWholeResult } from '../chat/whole-results';

function asArguments(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Why a call of an app's tool produced no result, as the app is told (ui/notifications/tool-cancelled). */
export function cancelReason(call: ChatToolCall): string | undefined {
  if (call.status !== 'error') return undefined;
  if (call.error?.code === 'CANCELLED') return 'The person stopped it.';
  if (call.approval === 'denied' || call.error?.code === 'CONSENT_DENIED') return 'The person did not allow it.';
  return call.error?.message ?? 'It failed.';
}

interface Props {
  readonly call: ChatToolCall;
  /** The call's turn: where a result that came as a preview is fetched whole from (the app gets it whole). */
  readonly turnId?: string | undefined;
  /** The app cannot be shown: the card shows the raw result instead. */
  readonly onUnavailable?: () => void;
}

/**
 * A chat tool call's app: shown from the moment the call appears (input first, then the result
 * or the cancellation), wound down while its card is off screen and shown again — from the stored
 * result — when it comes back, or when the conversation is opened again later.
 */
export function ToolCallApp({ call, turnId, onUnavailable }: Props) {
  const conversation = useAppConversation();
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  const onScreen = useOnScreen(slot);
  // While the model still writes the call, its app gets the arguments so far; then the whole of them.
  const partialInput = usePartialInput(call.id);
  const input = partialInput ? undefined : asArguments(call.arguments);
  // A large result came as a preview: the app waits for it whole.
  const whole = useWholeResult(call, turnId, call.status === 'done');
  const stored = whole?.status === 'ready' ? whole.value : undefined;
  const result = useMemo<CallToolResult | undefined>(
    () =>
      call.status === 'done' && stored
        ? { content: stored.content as CallToolResult['content'], isError: stored.isError, ...(stored.structuredContent !== undefined ? { structuredContent: stored.structuredContent as Record<string, unknown> } : {}) }
        : undefined,
    [call.status, stored],
  );
  if (!call.server || !call.tool) return null;
  const cancelled = cancelReason(call);
  return (
    <div ref={setSlot}>
      <AppFrame
        server={call.server}
        tool={call.tool}
        toolCallId={call.id}
        {...(conversation ? { conversation } : {})}
        {...(input ? { input } : {})}
        {...(partialInput ? { partialInput } : {})}
        {...(result ? { result } : {})}
        {...(cancelled ? { cancelled } : {})}
        paused={!onScreen}
        {...(onUnavailable ? { onUnavailable } : {})}
      />
    </div>
  );
}
