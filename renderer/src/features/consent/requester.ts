import type { ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

/** Who asks for a tool call, in words: the dialog's lead and its "Asked by" line. */
export interface RequesterWords {
  readonly askedBy: string;
  readonly lead: string;
}

const CHECK = 'Check what it does and the data it gets.';

/**
 * The Host says who asks (`requester`); without it (an older Host) a call outside a conversation
 * is taken as the person's and one inside as the chat's, as before.
 */
export function requesterWords(request: ConsentRequest): RequesterWords {
  const requester = request.requester ?? (request.conversationId === undefined ? { kind: 'person' as const } : undefined);
  switch (requester?.kind) {
    case 'person':
      return { askedBy: 'You, by hand', lead: `You are running this tool by hand. ${CHECK}` };
    case 'model':
      return { askedBy: 'The model, in a conversation', lead: `The model wants to run this tool for the chat. ${CHECK}` };
    case 'code':
      return { askedBy: 'A script the model wrote (code mode)', lead: `A script the model wrote wants to run this tool for the chat. ${CHECK}` };
    case 'app': {
      const app = `the App of “${visibleText(requester.server)}”`;
      const shows = requester.tool ? ` (showing the result of “${visibleText(requester.tool)}”)` : '';
      return {
        askedBy: `${app.charAt(0).toUpperCase()}${app.slice(1)}${shows}`,
        lead: `Not you: ${app}${shows} is calling this tool by itself. ${CHECK}`,
      };
    }
    case 'task':
      return { askedBy: 'A task', lead: `A task wants to run this tool. ${CHECK}` };
    default:
      return { askedBy: 'The chat', lead: `A tool wants to run for the chat. ${CHECK}` };
  }
}
