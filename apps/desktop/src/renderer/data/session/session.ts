/**
 * Pairing and signing in. A PIN is checked on the till against the PIN
 * verifiers the server made for this till (core's `matchTillPin`), so a
 * cashier signs in offline. Each attempt is counted before its PIN is checked,
 * in one atomic write, so attempts made at once cannot pass the count: five
 * wrong PINs in a row lock sign-in for five minutes, for that employee when the
 * screen named one, otherwise the till's PIN sign-in, which a manager's PIN
 * still opens (and so unlocks). The count is kept in `kv`, so a reload does not
 * reset it. A signed-in cashier the server deactivated, moved to another
 * store, or gave a new PIN or role is signed out when the change arrives.
 */
import { matchTillPin } from '@tz/core';
import type { PullDocument } from '@tz/core';
import { isPairingCodeRefusal, TillRefusal } from '../api.ts';
import type { Cashier, TillIdentity } from '../api.ts';
import { device, hasEnded, refuseWhileUnsynced, requireDevice } from '../store/context.ts';
import type { Context, Device } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import { classifyFailure, failureCode, failureMessage } from '../sync/transport.ts';

export const PIN_ATTEMPTS = 5;
export const PIN_LOCK_MS = 5 * 60 * 1000;

interface Lockout {
  failures: number;
  lockedUntil: number;
}

/** The session as kept: the cashier, and the verifier they signed in with, to notice a change of PIN. */
type Session = Cashier & { pin?: string | undefined };

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
    if (kind === 'unreachable') throw new TillRefusal('unreachable', failureMessage(error));
    // Wrong, used and expired codes each call for something different: say which.
    const code = failureCode(error);
    throw new TillRefusal(isPairingCodeRefusal(code) ? code : 'pairing_failed', failureMessage(error));
  }
  const till: TillIdentity = {
    id: answer.till.id,
    name: answer.till.name,
    store: answer.till.store,
    receiptPrefix: answer.till.receipt_prefix,
    merchant: { id: answer.merchant.id, businessName: answer.merchant.business_name },
    livemode: answer.livemode,
    ...(answer.public_url ? { publicUrl: answer.public_url } : {}),
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

/** Whether an employee signs in here: the server sends a till only its store's active ones, each with a verifier. */
export const signsIn = (e: PullDocument<'employees'>) => e.pin !== null;

async function storeEmployees(ctx: Context): Promise<Array<PullDocument<'employees'>>> {
  await requireDevice(ctx);
  const docs = await ctx.db.employees.find().exec();
  return docs
    .map((doc) => doc.toJSON() as unknown as PullDocument<'employees'>)
    .filter(signsIn)
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The first employee (by id) whose PIN matches, or null. */
async function matchPin(
  candidates: Array<PullDocument<'employees'>>,
  pin: string,
): Promise<PullDocument<'employees'> | null> {
  return (
    candidates[
      await matchTillPin(
        pin,
        candidates.map((e) => e.pin),
      )
    ] ?? null
  );
}

const locked = (until: number) =>
  new TillRefusal('pin_locked', 'Too many wrong PINs: wait before trying again', { until });

/**
 * Runs a PIN check under the lockout of `who`. The attempt is counted first,
 * atomically, and checked only if it was within the count: a thousand
 * attempts made at once are five checks and a lock, whichever PIN they carry.
 * A right PIN clears the count.
 */
async function guarded<T>(ctx: Context, who: string, check: () => Promise<T | null>): Promise<T> {
  const key = KV.lockout(who);
  const now = ctx.now();
  let allowed = false;
  const counted = await ctx.kv.update<Lockout>(key, { failures: 0, lockedUntil: 0 }, (current) => {
    allowed = !(current.lockedUntil > now);
    if (!allowed) return current;
    // A lock that has run out starts a fresh count.
    const failures = current.lockedUntil !== 0 ? 1 : current.failures + 1;
    return { failures, lockedUntil: failures >= PIN_ATTEMPTS ? now + PIN_LOCK_MS : 0 };
  });
  if (!allowed) throw locked(counted.lockedUntil);
  const found = await check();
  if (found) {
    await ctx.kv.remove(key);
    return found;
  }
  if (counted.lockedUntil > now) throw locked(counted.lockedUntil);
  throw new TillRefusal('pin_wrong', 'Wrong PIN', { remaining: PIN_ATTEMPTS - counted.failures });
}

/** While the till's PIN sign-in is locked: the lock's end, else null. */
async function tillLockedUntil(ctx: Context): Promise<number | null> {
  const state = await ctx.kv.get<Lockout>(KV.lockout('till'));
  return state && state.lockedUntil > ctx.now() ? state.lockedUntil : null;
}

export async function signIn(ctx: Context, pin: string, employeeId?: string): Promise<Cashier> {
  const employees = await storeEmployees(ctx);
  // Before the first sync brings the cashiers, no PIN can match: say so, and count no wrong PIN.
  if (employees.length === 0) {
    throw new TillRefusal('cashiers_not_synced', 'The cashiers have not reached this till yet');
  }
  let employee: PullDocument<'employees'>;
  if (employeeId !== undefined) {
    employee = await guarded(ctx, employeeId, () =>
      matchPin(
        employees.filter((e) => e.id === employeeId),
        pin,
      ),
    );
  } else {
    const until = await tillLockedUntil(ctx);
    if (until === null) {
      employee = await guarded(ctx, 'till', () => matchPin(employees, pin));
    } else {
      // Locked for cashiers; a manager's PIN (counted under the managers' own lock) signs in and unlocks.
      const managers = employees.filter((e) => e.role === 'manager');
      const manager = await guarded(ctx, 'manager', () => matchPin(managers, pin)).catch((error: unknown) => {
        throw error instanceof TillRefusal && error.code === 'pin_wrong' ? locked(until) : error;
      });
      await ctx.kv.remove(KV.lockout('till'));
      employee = manager;
    }
  }
  const cashier: Cashier = {
    id: employee.id,
    name: employee.name,
    role: employee.role,
    signedInAt: ctx.now(),
  };
  await ctx.kv.set(KV.session, { ...cashier, pin: employee.pin?.hash } satisfies Session);
  return cashier;
}

/**
 * Signs the cashier out when this till no longer holds them as they signed in:
 * deactivated or moved away (their document deleted), or given another PIN or
 * role. Run whenever the employees change (a sync brought a change).
 */
export async function checkSession(ctx: Context): Promise<void> {
  const session = await ctx.kv.get<Session>(KV.session);
  if (!session) return;
  const doc = await ctx.db.employees.findOne(session.id).exec();
  const employee = doc ? (doc.toJSON() as unknown as PullDocument<'employees'>) : null;
  const same =
    employee !== null &&
    employee.pin !== null &&
    employee.role === session.role &&
    (session.pin === undefined || employee.pin.hash === session.pin);
  if (same) return;
  const current = await ctx.kv.get<Session>(KV.session);
  // Only the session that was checked: one signed in meanwhile stays.
  if (current?.id === session.id && current.signedInAt === session.signedInAt)
    await ctx.kv.remove(KV.session);
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
