import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
const probes: string[] = [];

/** Lints a probe file written where the rule applies, as `npm run lint` would. */
async function lintProbe(folder: string, source: string): Promise<string[]> {
  const file = path.join(root, folder, `lint-probe-${randomUUID()}.ts`);
  probes.push(file);
  await writeFile(file, source);
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

afterEach(async () => {
  await Promise.all(probes.splice(0).map((file) => rm(file, { force: true })));
});

describe('the lint configuration keeps dependencies pointing one way', () => {
  it('refuses a Node module, a Node global and a platform package in packages/core', async () => {
    const messages = await lintProbe(
      'packages/core/src',
      `import { createServer } from 'node:http';\nimport pino from 'pino';\nexport const probe = [createServer, pino, Buffer.from('x'), process.env];\n`,
    );
    expect(messages.filter((m) => m.startsWith('no-restricted-imports'))).toHaveLength(2);
    expect(messages.filter((m) => m.startsWith('no-restricted-globals'))).toHaveLength(2);
  });

  it('refuses an import from http/ in a service', async () => {
    const messages = await lintProbe(
      'apps/server/src/payments',
      `import { routeHandler } from '../http/pipeline.ts';\nexport const probe = routeHandler;\n`,
    );
    expect(messages.some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
  });

  it('passes a core module that uses only the web platform', async () => {
    const messages = await lintProbe(
      'packages/core/src',
      `export const probe = (text: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));\n`,
    );
    expect(messages).toEqual([]);
  });
});
