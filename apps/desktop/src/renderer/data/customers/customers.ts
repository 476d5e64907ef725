/**
 * Customers at the till: those pulled from the server, and those this till
 * made (offline too) that the server has not sent back yet.
 *
 * A customer made here is a `customer.create` command and nothing else: the
 * pulled `customers` collection stays the server's. The customer's id is made
 * from the command's, `cus_` and the command's ULID in lowercase (the form the
 * server's own ids take), so the cart, the receipt and the sale can name the
 * customer at once, and the command is found from the id in one read. Once
 * the server has applied it, its copy arrives by the pull under that same id;
 * when the phone was already a customer's, the server links the till's id to
 * that customer (the command's result names them), and a sale naming the
 * till's id is recorded against them (docs/SYNC.md, "Customers made at the till").
 */
import { combineLatest, firstValueFrom, map, of, switchMap, type Observable } from 'rxjs';
import { CUSTOMER_NAME_MAX, idPattern, normalizeTanzanianMobile } from '@tz/core';
import { TillRefusal, type TillCustomer } from '../api.ts';
import { searchCustomers as searchPulled } from '../catalogue/catalogue.ts';
import type { Context } from '../store/context.ts';
import type { CommandDoc } from '../store/schema.ts';
import { requireCashier } from '../session/session.ts';
import { queueCommand } from '../shifts/shifts.ts';

type Customer = TillCustomer;

const customerIdOf = (commandId: string) => `cus_${commandId.slice('cmd_'.length).toLowerCase()}`;
const commandIdOf = (customerId: string) => `cmd_${customerId.slice('cus_'.length).toUpperCase()}`;
const mayBeMadeHere = (customerId: string) => idPattern('customer').test(customerId);

/** The customer a `customer.create` command made, as the till shows it until the server's copy arrives. */
function fromCommand(command: CommandDoc): Customer {
  const payload = command.payload as { customer: string; name: string; phone: string };
  const customer = {
    id: payload.customer,
    _deleted: false,
    name: payload.name,
    phone: payload.phone,
    email: null,
  };
  return command.status === 'pending' ? { ...customer, unsynced: true } : customer;
}

/** The customer the server linked this till's id to, when the phone was already one of its customers'. */
function linkedTo(command: CommandDoc): string | null {
  const result = command.result as { customer?: unknown; linked?: unknown } | null;
  return result?.linked === true && typeof result.customer === 'string' ? result.customer : null;
}

const pulled$ = (ctx: Context, id: string): Observable<Customer | null> =>
  ctx.db.customers.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as unknown as Customer) : null)));

/** The customer an id names, as it changes: pulled, made here, or made here and linked to a pulled one. */
export function watchCustomer(ctx: Context, id: string): Observable<Customer | null> {
  const made$ = mayBeMadeHere(id)
    ? ctx.db.commands
        .findOne(commandIdOf(id))
        .$.pipe(map((doc) => (doc ? (doc.toJSON() as CommandDoc) : null)))
    : of(null);
  return combineLatest([pulled$(ctx, id), made$]).pipe(
    switchMap(([doc, command]) => {
      if (doc || !command || command.type !== 'customer.create') return of(doc);
      const target = linkedTo(command);
      return target
        ? pulled$(ctx, target).pipe(map((linked) => linked ?? fromCommand(command)))
        : of(fromCommand(command));
    }),
  );
}

export const findCustomer = (ctx: Context, id: string): Promise<Customer | null> =>
  firstValueFrom(watchCustomer(ctx, id));

/**
 * What a phone search means to a cashier: `0712…`, `+255 712…` and `712…` all look for `255712…`,
 * the form customers' numbers are stored in.
 */
function phoneKey(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (text.trimStart().startsWith('0')) return `255${digits.slice(1)}`;
  return '255'.startsWith(digits.slice(0, 3)) ? digits : `255${digits}`;
}

/** The customers this till made that the server has not sent back (none refused, none linked to another). */
async function madeHereNotPulled(ctx: Context): Promise<Customer[]> {
  const commands = await ctx.db.commands.find({ selector: { type: 'customer.create' } }).exec();
  const candidates = commands
    .map((doc) => doc.toJSON() as CommandDoc)
    .filter((command) => command.status !== 'refused' && linkedTo(command) === null)
    .map(fromCommand);
  if (candidates.length === 0) return [];
  const present = await ctx.db.customers.findByIds(candidates.map((c) => c.id)).exec();
  return candidates.filter((customer) => !present.has(customer.id));
}

/** Customers whose name or phone begins with the text: pulled ones, then those made here and not yet back. */
export async function searchCustomers(ctx: Context, text: string, limit = 20): Promise<Customer[]> {
  const wanted = text.trim();
  if (wanted === '') return [];
  const byPhone = /^[+\d]/.test(wanted);
  const query = byPhone ? phoneKey(wanted) : wanted;
  const [pulled, local] = await Promise.all([searchPulled(ctx, query, limit), madeHereNotPulled(ctx)]);
  const lower = wanted.toLowerCase();
  const matching = local.filter((customer) =>
    byPhone
      ? (customer.phone ?? '').startsWith(query)
      : (customer.name ?? '').toLowerCase().startsWith(lower),
  );
  return [...pulled, ...matching].slice(0, limit);
}

export interface NewCustomer {
  name: string;
  phone: string;
}

/**
 * Makes a customer at the counter, offline too, and answers them. A phone
 * that already belongs to a customer the till knows answers that customer
 * (`existing`), and nothing is queued; otherwise one `customer.create`
 * command is the whole of it. Refused before queuing: no name
 * (`customer_name_missing`), a number that is not a Tanzanian mobile
 * (`phone_invalid`).
 */
export async function createCustomer(
  ctx: Context,
  input: NewCustomer,
): Promise<{ customer: Customer; existing: boolean }> {
  const cashier = await requireCashier(ctx);
  const name = input.name.trim();
  if (name === '' || name.length > CUSTOMER_NAME_MAX) {
    throw new TillRefusal('customer_name_missing', 'Give the customer’s name');
  }
  const phone = normalizeTanzanianMobile(input.phone);
  if (phone === null) throw new TillRefusal('phone_invalid', 'Give a Tanzanian mobile number');
  const known = await ctx.db.customers.findOne({ selector: { phone_key: phone } }).exec();
  if (known) return { customer: known.toJSON() as unknown as Customer, existing: true };
  const mine = (await madeHereNotPulled(ctx)).find((customer) => customer.phone === phone);
  if (mine) return { customer: mine, existing: true };
  const id = ctx.ids.command();
  const command = await queueCommand(
    ctx,
    'customer.create',
    { customer: customerIdOf(id), name, phone },
    { id, cashier: cashier.id },
  );
  return { customer: fromCommand(command), existing: false };
}
