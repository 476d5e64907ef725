/**
 * The first sync's progress after pairing, read from what has reached storage:
 * the store, the employees who sign in there, and the products. Until the
 * cashiers are there a PIN pad could only say "no such PIN", so the sign-in
 * screen shows this instead.
 */
import { combineLatest, distinctUntilChanged, map, of, switchMap, type Observable } from 'rxjs';
import type { PullDocument } from '@tz/core';
import type { FirstSync } from '../api.ts';
import type { Context, Device } from '../store/context.ts';
import { signsIn } from '../session/session.ts';

const NOTHING: FirstSync = { store: false, cashiers: 0, catalogue: false };

export function watchFirstSync(ctx: Context, device$: Observable<Device | null>): Observable<FirstSync> {
  return device$.pipe(
    map((device) => device?.till.store ?? null),
    distinctUntilChanged(),
    switchMap((store) =>
      store === null
        ? of(NOTHING)
        : combineLatest({
            store: ctx.db.stores.findOne(store).$.pipe(map((doc) => doc !== null)),
            cashiers: ctx.db.employees
              .find()
              .$.pipe(
                map(
                  (docs) =>
                    docs.map((doc) => doc.toJSON() as unknown as PullDocument<'employees'>).filter(signsIn)
                      .length,
                ),
              ),
            // Products are stored as pages: one page is enough to say they are arriving.
            catalogue: ctx.db.products.count().$.pipe(map((pages) => pages > 0)),
          }),
    ),
    distinctUntilChanged(
      (a, b) => a.store === b.store && a.cashiers === b.cashiers && a.catalogue === b.catalogue,
    ),
  );
}
