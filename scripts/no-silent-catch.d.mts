// Types for no-silent-catch.mjs (the lint rule; eslint.config.js and its test import it).
import type { Rule } from 'eslint';

declare const noSilentCatch: Rule.RuleModule;
export default noSilentCatch;
