import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');

/** Probe files written where each rule applies, linted together as `npm run lint` would. */
const PROBES = {
  coreWithNode: {
    folder: 'packages/core/src',
    source: `import { createServer } from 'node:http';\nimport pino from 'pino';\nexport const probe = [createServer, pino, Buffer.from('x'), process.env];\n`,
  },
  serviceWithHttp: {
    folder: 'apps/server/src/payments',
    source: `import { routeHandler } from '../http/pipeline.ts';\nexport const probe = routeHandler;\n`,
  },
  coreWithWeb: {
    folder: 'packages/core/src',
    source: `export const probe = (text: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));\n`,
  },
};
type Probe = keyof typeof PROBES;

const files = Object.fromEntries(
  Object.entries(PROBES).map(([name, { folder }]) => [
    name,
    path.join(root, folder, `lint-probe-${randomUUID()}.ts`),
  ]),
) as Record<Probe, string>;
const messages = {} as Record<Probe, string[]>;

// One lint of the three: typed linting builds the project's program once per run, most of the cost.
beforeAll(async () => {
  for (const [name, { source }] of Object.entries(PROBES)) await writeFile(files[name as Probe], source);
  const results = await new ESLint({ cwd: root }).lintFiles(Object.values(files));
  for (const name of Object.keys(PROBES) as Probe[]) {
    const result = results.find((r) => r.filePath === files[name])!;
    messages[name] = result.messages.map((message) => `${message.ruleId}: ${message.message}`);
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
});

describe('the lint configuration keeps dependencies pointing one way', () => {
  it('refuses a Node module, a Node global and a platform package in packages/core', () => {
    expect(messages.coreWithNode.filter((m) => m.startsWith('no-restricted-imports'))).toHaveLength(2);
    expect(messages.coreWithNode.filter((m) => m.startsWith('no-restricted-globals'))).toHaveLength(2);
  });

  it('refuses an import from http/ in a service', () => {
    expect(messages.serviceWithHttp.some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
  });

  it('passes a core module that uses only the web platform', () => {
    expect(messages.coreWithWeb).toEqual([]);
  });
});
