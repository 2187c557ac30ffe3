/**
 * The grammar names the chat knows without loading Prism (code-grammars.ts) are the ones Prism
 * has: a grammar prism-react-renderer adds or drops in an update fails here, not as a fenced
 * block shown unhighlighted (or a highlighter asked for a grammar it lacks).
 */
import { Prism } from 'prism-react-renderer';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../../renderer/src/features/chat/code-grammars';

describe('code grammars', () => {
  it("lists exactly Prism's grammars", () => {
    const prisms = Object.keys(Prism.languages).filter((name) => typeof (Prism.languages as Record<string, unknown>)[name] === 'object');
    expect([...GRAMMARS].sort()).toEqual(prisms.sort());
  });
});
