// Lint rules CI enforces. The JSX-text rule (after excalidraw's) keeps every user-visible string
// behind t(...), so both languages stay complete; `boundaries/imports` keeps the layers one-way
// (client, worker, contract, the server's layers, Fastify in the transports, no module-folder
// cycles: scripts/eslint-import-boundaries.js, ADR 0052, tested in
// tests/unit/lint-boundaries.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from './scripts/eslint-import-boundaries.js';
import size from './scripts/eslint-function-length.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'No focused tests.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'contract/**/*.ts', 'workers/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/imports': 'error' },
  },
  {
    // Function length (ADR 0052): a warning past 70 lines, an error past 150 except the functions
    // in scripts/lint-allow/function-length.json, which may only shrink. Blank and comment lines
    // do not count.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'workers/**/*.ts'],
    plugins: { size },
    rules: {
      'max-lines-per-function': ['warn', { max: 70, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'size/function-lines': ['error', { max: 150 }],
    },
  },
  {
    // Tests read JSON envelopes whose payload type varies per endpoint.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXText[value=/[A-Za-z\\u4e00-\\u9fff]/]',
          message: 'User-visible text must go through t(...) (both languages).',
        },
        {
          selector:
            'JSXAttribute[name.name=/^(placeholder|title|alt|aria-label)$/] > Literal[value=/[A-Za-z\\u4e00-\\u9fff]/]',
          message: 'User-visible attribute text must go through t(...).',
        },
      ],
    },
  },
);
