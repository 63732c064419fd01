// ESLint for the whole monorepo, including the import boundaries of STYLE.md §1.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVER_NOT_WEB = { group: ['**/apps/web/**', '@ads/web', '@ads/web/*', '@/*'], message: 'The server never imports the web app.' };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'e2e/report/**', 'e2e/test-results/**', 'bench/results/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Tests may use `any` for parsed JSON answers.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', '**/test/**', '**/testing/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/server/**', '@ads/server', '@ads/server/*'], message: 'The web app talks to the server over HTTP only; share code through @ads/contracts.' },
            { group: ['@/features/*/*/**', '!@/features/*/pages/*'], message: "Use shared code (components, lib, stores, contracts), not another feature's internals." },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [SERVER_NOT_WEB] },
      ],
    },
  },
  {
    // Features meet through their services (STYLE.md §1): another feature's repository, routes or helpers are its own.
    files: ['apps/server/src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_NOT_WEB,
            { regex: '^\\.\\./(?!\\.\\.)[^/]+/(?![^/]+\\.service(\\.ts)?$)', message: "Reach another feature through its *.service.ts only, not its internals." },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@ads/server', '@ads/web'], message: 'contracts depend on nothing of ours.' }] }],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    rules: { 'no-console': 'off' },
  },
);
