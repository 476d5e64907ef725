/**
 * A customer made at the till, offline as well as online: the till makes the
 * customer's id itself (as it makes `client_order_id` for a sale), so the cart,
 * the receipt and the sale can name the customer before the server has heard
 * of them. The server creates the customer under that id, or, when the phone
 * already belongs to one of the merchant's customers, links the id to that
 * customer instead of making a second (docs/SYNC.md, "Customers made at the till").
 */
import { z } from 'zod';
import { idPattern } from './ids.ts';
import { tanzanianMobileSchema } from './phone.ts';

/** `cus_` and a lowercase ULID: the form core's `newId('customer')` makes, so a till's id and the server's look alike. */
export const tillCustomerIdSchema = z
  .string()
  .regex(idPattern('customer'), { error: 'must be cus_ and a lowercase ULID' });

export const CUSTOMER_NAME_MAX = 200;

/** The payload of a till's `customer.create` command: both fields are needed at a counter. */
export const createCustomerCommand = z.strictObject({
  customer: tillCustomerIdSchema.describe('The till’s id for the customer'),
  name: z.string().trim().min(1, { error: 'is required' }).max(CUSTOMER_NAME_MAX),
  phone: tanzanianMobileSchema.describe('Normalised to 255XXXXXXXXX'),
});
export type CreateCustomerCommand = z.output<typeof createCustomerCommand>;
