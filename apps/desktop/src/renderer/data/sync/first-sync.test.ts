import { afterEach, describe, expect, it } from 'vitest';
import type { FirstSync } from '../api.ts';
import { makeEmployee, makeProduct, openTestTill, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

/** Follows `firstSync$` and keeps the latest value. */
function watch(t: TestTill): { latest: () => FirstSync | null } {
  let latest: FirstSync | null = null;
  t.store.firstSync$.subscribe((progress) => (latest = progress));
  return { latest: () => latest };
}

describe('the first sync’s progress', () => {
  it('says the store arrived and no cashiers yet, before any employee reaches the till', async () => {
    till = await openTestTill({ employees: [] });
    const progress = watch(till);
    await settle(() => expect(progress.latest()).toEqual({ store: true, cashiers: 0, catalogue: false }));
  });

  it('counts only the employees who sign in with a PIN (the server sends only this store’s active ones), and sees the products', async () => {
    till = await openTestTill({
      employees: [
        await makeEmployee(),
        await makeEmployee({ id: 'emp_second' }),
        await makeEmployee({ id: 'emp_nopin', pin: null }),
      ],
      products: [makeProduct()],
    });
    const progress = watch(till);
    await settle(() => expect(progress.latest()).toEqual({ store: true, cashiers: 2, catalogue: true }));
  });
});
