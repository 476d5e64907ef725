import { describe, expect, it } from 'vitest';
import { PUSH_BATCH_MAX, PUSH_BODY_MAX_BYTES, pushBatch } from './protocol.ts';

const command = (i: number, padding: number) => ({ id: `cmd_${i}`, payload: { note: 'ñ'.repeat(padding) } });
const bodyBytes = (commands: unknown[]) => new TextEncoder().encode(JSON.stringify({ commands })).length;

describe('pushBatch', () => {
  it('takes at most PUSH_BATCH_MAX small commands, in order', () => {
    const commands = Array.from({ length: PUSH_BATCH_MAX + 5 }, (_, i) => command(i, 10));
    expect(pushBatch(commands)).toEqual(commands.slice(0, PUSH_BATCH_MAX));
  });

  it('takes no more commands than fit the push body limit, counting UTF-8 bytes', () => {
    // Each command is some 300 KB of two-byte characters: six fit in 2 MB.
    const commands = Array.from({ length: 10 }, (_, i) => command(i, 150_000));
    const batch = pushBatch(commands);
    expect(batch).toEqual(commands.slice(0, batch.length));
    expect(bodyBytes(batch)).toBeLessThanOrEqual(PUSH_BODY_MAX_BYTES);
    expect(bodyBytes(commands.slice(0, batch.length + 1))).toBeGreaterThan(PUSH_BODY_MAX_BYTES);
  });

  it('always takes the first command, so the queue moves', () => {
    const commands = [command(0, 2_000), command(1, 10)];
    expect(pushBatch(commands, 1_000)).toEqual([commands[0]]);
    expect(pushBatch(commands, bodyBytes(commands))).toEqual(commands);
  });
});
