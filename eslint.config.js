import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '.prof/', '.ci/', 'packages/*/dist/', 'packages/*/src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits or catches, or one passed where a callback's
    // result is ignored, loses its errors (an unhandled rejection ends the process).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test runs what test() and describe() return itself.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // better-sqlite3 12 aborts Node.js 24.19+ when the garbage collector frees one of its objects:
    // every value import goes through the driver module, which picks 13 where Node-API 10 exists.
    files: ['**/*.ts'],
    ignores: ['src/store/sqlite/driver.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              message: 'Import { Database } from src/store/sqlite/driver.ts (12 aborts Node.js 24.19+).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['bin/*', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The console runs in a browser (plain ES modules, no build step).
    files: ['console/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'location',
          'history',
          'navigator',
          'sessionStorage',
          'fetch',
          'URL',
          'URLSearchParams',
          'AbortController',
          'AbortSignal',
          'Node',
          'HTMLElement',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
)
