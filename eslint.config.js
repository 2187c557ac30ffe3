// Lint is where the house rules live (../shared/DESIGN.md §1): they fail `npm run lint`, and
// test/unit/house-rules.test.ts proves each rule still fires on a deliberate violation.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Files in main/ that may import electron: the shell and nothing else. */
const ELECTRON_SHELL = ['main/index.ts', 'main/window.ts', 'main/ipc.ts', 'main/shell/**/*.ts'];

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/output/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  // --- House rule: main/ runs under plain Node, except the thin Electron shell.
  {
    files: ['main/**/*.ts'],
    ignores: ELECTRON_SHELL,
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only main/index.ts, main/window.ts and main/ipc.ts may import electron: everything else in main runs under plain Node.' }],
        patterns: [
          { group: ['**/renderer/**', '**/renderer'], message: 'main never imports the renderer.' },
          { group: ['**/preload/index', '**/preload/index.*'], message: 'main never imports the preload script; import preload/contract instead.' },
        ],
      }],
    },
  },
  // --- House rule: the renderer knows only window.harbor (or the web bridge) and the contract.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'electron', message: 'The renderer never imports electron; use window.harbor.' },
          ...nodeBuiltins.map((name) => ({ name, message: 'The renderer never imports Node modules.' })),
        ],
        patterns: [
          { group: ['node:*'], message: 'The renderer never imports Node modules.' },
          { group: ['**/main/**', '**/main'], message: 'The renderer never imports main; talk through the contract.' },
          { group: ['**/preload/index', '**/preload/index.*'], message: 'The renderer imports only preload/contract.' },
        ],
      }],
    },
  },
  // --- House rule: the preload imports electron and the contract, nothing else.
  {
    files: ['preload/index.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!electron$|[.]/contract$)', message: 'preload/index.ts imports only electron and ./contract.' }],
      }],
    },
  },
  // --- House rule: the contract is pure data shapes (main, preload and renderer all import it):
  // zod and its own files, nothing else.
  {
    files: ['preload/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!zod$|[.]/[\\w-]+$)', message: 'preload/contract/ imports only zod and its own files.' }],
      }],
    },
  },
);
