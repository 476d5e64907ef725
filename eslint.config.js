// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/out/**', '.data/**', 'coverage/**', 'scratch/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The core runs on the till and the server: it may not reach platform code.
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'pg', 'koa', '@koa/*', 'electron', 'react', 'fs', 'path', 'crypto', 'net'] },
      ],
    },
  },
  {
    // The till's page code runs in a browser (or a sandboxed preload): Node and Node-only packages stay in
    // the main process and the bridge; their types may be imported.
    files: [
      'apps/desktop/src/shared/**/*.ts',
      'apps/desktop/src/renderer/**/*.{ts,tsx}',
      'apps/desktop/src/preload/**/*.ts',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'net', 'http', 'os', 'child_process'],
              message: 'Page code has no Node.',
            },
            {
              group: ['@tz/printers', 'usb', 'node-thermal-printer', 'electron'],
              allowTypeImports: true,
              message: 'Reach hardware through the TillBridge (window.till or the local bridge).',
            },
          ],
        },
      ],
    },
  },
  {
    // The preload's one runtime import: Electron's contextBridge and ipcRenderer.
    files: ['apps/desktop/src/preload/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'net', 'http', 'os', 'child_process'],
              message: 'A sandboxed preload has no Node.',
            },
            {
              group: ['@tz/printers', 'usb', 'node-thermal-printer'],
              allowTypeImports: true,
              message: 'Printing runs in the main process.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // HTTP response bodies in tests are untyped JSON by nature.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
