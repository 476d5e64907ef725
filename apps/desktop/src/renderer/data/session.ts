/**
 * Pairing and signing in. A PIN is checked on the till against the employees'
 * PIN hashes (core's `verifyPin`), so a cashier signs in offline. Five wrong
 * PINs in a row lock sign-in for that employee on this till (or, when the
 * screen gave no employee, the till's sign-in) for five minutes; the count is
 * kept in `kv` so a reload does not reset it.
 */
import { verifyPin } from '@tz/core';
import type { PullDocument } from '@tz/core';
import { TillRefusal } from './api.ts';
import type { Cashier, TillIdentity } from './api.ts';
import { device, hasEnded, refuseWhileUnsynced, requireDevice } from './context.ts';
import type { Context, Device } from './context.ts';
import { KV } from './kv.ts';
import { classifyFailure, failureMessage } from './transport.ts';

export const PIN_ATTEMPTS = 5;
export const PIN_LOCK_MS = 5 * 60 * 1000;

interface Lockout {
  failures: number;
  lockedUntil: number;
}

export async function pair(ctx: Context, code: string): Promise<TillIdentity> {
  const current = await device(ctx);
  // An ended till with nothing left to send may become another till.
  if (current && !hasEnded(current)) throw new TillRefusal('already_paired', 'This till is already paired');
  if (current) await refuseWhileUnsynced(ctx, 'pairing again');
  if (!ctx.online()) throw new TillRefusal('offline', 'Pairing needs the internet');
  let answer;
  try {
    answer = await ctx.transport.pair({ code: code.trim() });
  } catch (error) {
    const kind = classifyFailure(error);
    throw new TillRefusal(kind === 'unreachable' ? 'unreachable' : 'pairing_failed', failureMessage(error));
  }
  const till: TillIdentity = {
    id: answer.till.id,
    name: answer.till.name,
    store: answer.till.store,
    receiptPrefix: answer.till.receipt_prefix,
    merchant: { id: answer.merchant.id, businessName: answer.merchant.business_name },
    livemode: answer.livemode,
  };
  // The ended till's pairing and pulled data go; its command history stays.
  if (current) await unpair(ctx);
  const vault = ctx.bridge()?.credentials;
  if (vault) await vault.save(answer.credential);
  else await ctx.kv.set(KV.credential, answer.credential);
  await ctx.kv.set(KV.device, { till, pairing: ctx.ids.local(), revoked: false } satisfies Device);
  return till;
}

/** Forgets the pairing and the pulled data; counters and the command history stay. */
export async function unpair(ctx: Context): Promise<void> {
  await refuseWhileUnsynced(ctx, 'unpairing');
  await ctx.bridge()?.credentials?.clear();
  for (const key of [KV.credential, KV.device, KV.session, KV.cart, KV.shift, KV.tillExport]) {
    await ctx.kv.remove(key);
  }
  const { commands: _commands, kv: _kv, ...pulled } = ctx.db.collections;
  for (const collection of Object.values(pulled)) await collection.find().remove();
}

export async function loadCredential(ctx: Context): Promise<string | null> {
  const vault = ctx.bridge()?.credentials;
  return vault ? vault.load() : ctx.kv.get<string>(KV.credential);
}

async function storeEmployees(ctx: Context): Promise<Array<PullDocument<'employees'>>> {
  const { till } = await requireDevice(ctx);
  const docs = await ctx.db.employees.find().exec();
  return docs
    .map((doc) => doc.toJSON() as unknown as PullDocument<'employees'>)
    .filter((e) => e.active && e.pin !== null && (e.stores.length === 0 || e.stores.includes(till.store)))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The first employee (by id) whose PIN matches, or null. */
async function matchPin(
  candidates: Array<PullDocument<'employees'>>,
  pin: string,
): Promise<PullDocument<'employees'> | null> {
  const checks = await Promise.all(
    candidates.map((e) => (e.pin ? verifyPin(pin, e.pin) : Promise.resolve(false))),
  );
  return candidates[checks.indexOf(true)] ?? null;
}

/** Runs a PIN check under the lockout of `who`. */
async function guarded<T>(ctx: Context, who: string, check: () => Promise<T | null>): Promise<T> {
  const key = KV.lockout(who);
  const state = await ctx.kv.get<Lockout>(key);
  if (state && state.lockedUntil > ctx.now()) {
    throw new TillRefusal('pin_locked', 'Too many wrong PINs: wait before trying again', {
      until: state.lockedUntil,
    });
  }
  const found = await check();
  if (found) {
    await ctx.kv.remove(key);
    return found;
  }
  const after = await ctx.kv.update<Lockout>(key, { failures: 0, lockedUntil: 0 }, (current) => {
    // A lock that has run out starts a fresh count.
    const failures = current.lockedUntil !== 0 && current.lockedUntil <= ctx.now() ? 1 : current.failures + 1;
    return { failures, lockedUntil: failures >= PIN_ATTEMPTS ? ctx.now() + PIN_LOCK_MS : 0 };
  });
  if (after.lockedUntil > ctx.now()) {
    throw new TillRefusal('pin_locked', 'Too many wrong PINs: wait before trying again', {
      until: after.lockedUntil,
    });
  }
  throw new TillRefusal('pin_wrong', 'Wrong PIN', { remaining: PIN_ATTEMPTS - after.failures });
}

export async function signIn(ctx: Context, pin: string, employeeId?: string): Promise<Cashier> {
  const employees = await storeEmployees(ctx);
  // Before the first sync brings the cashiers, no PIN can match: say so, and count no wrong PIN.
  if (employees.length === 0) {
    throw new TillRefusal('cashiers_not_synced', 'The cashiers have not reached this till yet');
  }
  const candidates = employeeId === undefined ? employees : employees.filter((e) => e.id === employeeId);
  const employee = await guarded(ctx, employeeId ?? 'till', () => matchPin(candidates, pin));
  const cashier: Cashier = {
    id: employee.id,
    name: employee.name,
    role: employee.role,
    signedInAt: ctx.now(),
  };
  await ctx.kv.set(KV.session, cashier);
  return cashier;
}

export async function signOut(ctx: Context): Promise<void> {
  // On an ended till, waiting would never send them: signing out loses nothing.
  if (!hasEnded(await device(ctx))) await refuseWhileUnsynced(ctx, 'signing out');
  await ctx.kv.remove(KV.session);
}

export async function requireCashier(ctx: Context): Promise<Cashier> {
  const cashier = await ctx.kv.get<Cashier>(KV.session);
  if (!cashier) throw new TillRefusal('not_signed_in', 'Sign in first');
  return cashier;
}

/** A manager's PIN approves a discount, refund or void; wrong ones count towards a lock too. */
export async function approveByManager(ctx: Context, pin: string | undefined): Promise<Cashier> {
  if (pin === undefined || pin === '') {
    throw new TillRefusal('manager_pin_required', 'A manager must approve this');
  }
  const managers = (await storeEmployees(ctx)).filter((e) => e.role === 'manager');
  try {
    const manager = await guarded(ctx, 'manager', () => matchPin(managers, pin));
    return { id: manager.id, name: manager.name, role: manager.role, signedInAt: ctx.now() };
  } catch (error) {
    if (error instanceof TillRefusal && error.code === 'pin_wrong') {
      throw new TillRefusal('manager_pin_wrong', 'That is not a manager’s PIN', error.details);
    }
    throw error;
  }
}
