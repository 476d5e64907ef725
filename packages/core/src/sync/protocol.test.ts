import { describe, expect, it } from 'vitest';
import { PUSH_BATCH_MAX, PUSH_BODY_MAX_BYTES, commandPayloads, pushBatch } from './protocol.ts';

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

describe('a till’s order.create', () => {
  const sale = {
    receipt_number: 'T01-000004',
    lines: [{ product: 'prod_1', quantity: 1 }],
    tenders: [{ method: 'cash', amount: 1_000 }],
  };
  const parse = (payload: object) => commandPayloads['order.create'].safeParse({ ...sale, ...payload });

  it('names who sold by id and by name', () => {
    const parsed = parse({
      till_id: 'till_1',
      till_name: 'Kaunta 1',
      cashier_id: 'emp_1',
      cashier_name: 'Neema',
    });
    expect(parsed.data).toMatchObject({
      till_id: 'till_1',
      till_name: 'Kaunta 1',
      cashier_id: 'emp_1',
      cashier_name: 'Neema',
    });
  });

  it('reads a sale queued before the names, whose till and cashier were the ids, as ids', () => {
    const parsed = parse({ till: 'till_1', cashier: 'emp_1' });
    expect(parsed.data).toMatchObject({ till_id: 'till_1', cashier_id: 'emp_1' });
    expect(parsed.data).not.toHaveProperty('till_name');
    expect(parsed.data).not.toHaveProperty('till');
  });

  it('refuses the two shapes mixed', () => {
    expect(parse({ till: 'till_1', till_id: 'till_1' }).success).toBe(false);
  });
});
