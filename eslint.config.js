// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out/**',
      '.data/**',
      'coverage/**',
      'scratch/**',
      'eslint.config.js',
    ],
  },
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
        {
          paths: [
            ...builtinModules,
            'ioredis',
            'pino',
            'usb',
            'pg',
            'koa',
            'electron',
            'react',
            '@tz/printers',
          ].map((name) => ({
            name,
            message: 'packages/core runs in browsers and on the server: no platform code',
          })),
          patterns: [
            {
              group: ['node:*', '@koa/*', '@electric-sql/*', '@tz/printers/*'],
              message: 'no platform code in core',
            },
            {
              group: ['**/apps/**', '@tz/server', '@tz/server/*', '@tz/desktop', '@tz/desktop/*'],
              message: 'core imports no app',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', '__dirname', '__filename', 'require', 'global', 'setImmediate'].map(
          (name) => ({
            name,
            message: 'a Node global: packages/core runs in browsers too',
          }),
        ),
        ...['window', 'document', 'localStorage', 'navigator'].map((name) => ({
          name,
          message: 'a DOM global: packages/core runs on the server too',
        })),
      ],
    },
  },
  {
    // Services, domain modules and background work are called by routes, pages and the sync door,
    // never the other way round: they may not reach into the HTTP layer. Every server file but the
    // HTTP layer itself and the entry points that wire it up, so a new domain folder is covered too.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/http/**',
      'apps/server/src/routes/**',
      'apps/server/src/server.ts',
      'apps/server/src/startup.ts',
      'apps/server/src/main.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/*', '**/routes/**', 'koa', '@koa/*'],
              message: 'services never import from http/ or routes/',
            },
          ],
        },
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
      // The back office's page code, likewise.
      'apps/server/office/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/server/office/vite.config.ts'],
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
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts'],
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
