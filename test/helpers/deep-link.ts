import { expect } from 'vitest';
import { parseDeepLink } from '../../main/shell/deep-link';

/** The message a refused harbor:// link gets (a BAD_REQUEST); a link that is accepted fails the test, naming it. */
export function linkRefusal(link: string): string {
  try {
    parseDeepLink(link);
  } catch (error) {
    expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    return (error as Error).message;
  }
  throw new Error(`accepted: ${link}`);
}
