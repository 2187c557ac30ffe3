import type { ClientCapabilities, CreateMessageRequest, CreateMessageResult, LoggingLevel, LoggingMessageNotification, Root } from '@modelcontextprotocol/client';
import type { RequestScope } from './request-scope';

/** Which of the optional client capabilities Harbor declares to one server (decided at connect). */
export interface DeclaredFeatures {
  /** Sampling is declared unless the person set the server's "sampling" to "deny". */
  readonly sampling: boolean;
  /** Roots are declared only to a server that has roots configured. */
  readonly roots: boolean;
}

export type SamplingParams = CreateMessageRequest['params'];

/** Where a server's sampling request came from, as far as Harbor can tell, and when to give up. */
export interface SamplingContext {
  readonly signal: AbortSignal;
  readonly request?: RequestScope;
}

/**
 * What a connection offers one server beyond elicitation: sampling, roots and logging. It is the
 * port `servers` declares and the services implement (the model, the person's review, the
 * registry's roots and the log view all live above this folder). Every member is read when it is
 * needed, so a change in the registry applies without a restart where the protocol allows it.
 */
export interface ServerFeatures {
  declared(): DeclaredFeatures;
  /** `roots/list`, legacy request or modern input request. */
  listRoots(): Root[];
  /** `sampling/createMessage`; throws a ProtocolError the server receives when it is refused. */
  sample(params: SamplingParams, context: SamplingContext): Promise<CreateMessageResult>;
  /** A `notifications/message` from the server. */
  logged(message: LoggingMessageNotification['params']): void;
  /** The level the person chose (undefined: the server's own default; modern servers then send none). */
  logLevel(): LoggingLevel | undefined;
}

/** The client capabilities for `declared`, added to what every server gets (`base`). */
export function withDeclaredFeatures(base: ClientCapabilities, declared: DeclaredFeatures | undefined): ClientCapabilities {
  return {
    ...base,
    ...(declared?.sampling ? { sampling: {} } : {}),
    ...(declared?.roots ? { roots: { listChanged: true } } : {}),
  };
}

/**
 * The part of a server's registry entry that decides what is declared to it: changing it needs a
 * new connection (capabilities are fixed at initialize), changing anything else of these fields does not.
 */
export function declaredFeaturesOf(config: { readonly sampling?: string; readonly roots?: readonly string[] }): DeclaredFeatures {
  return { sampling: config.sampling !== 'deny', roots: (config.roots?.length ?? 0) > 0 };
}

/** Registry fields read while a server runs: editing them never restarts it (see `declaredFeaturesOf`). */
export const FEATURE_FIELDS = ['roots', 'sampling', 'samplingModel', 'samplingPerMinute', 'logLevel'] as const;
