/**
 * The verticals a merchant can install or remove. Every merchant starts with all
 * of them; a removed app's routes answer 403 `app_not_installed` and its data is
 * kept for when it is installed again.
 */
export const APP_SLUGS = [
  'retail',
  'hospitality',
  'events',
  'memberships',
  'employees',
  'printers',
  'statutory',
] as const;

export type AppSlug = (typeof APP_SLUGS)[number];

export const APPS: Record<AppSlug, { name: string; description: string }> = {
  retail: {
    name: 'Retail',
    description: 'Products, stores, stock, orders, tills and shifts, and the daily retail overview',
  },
  hospitality: { name: 'Hospitality', description: 'Rooms, bookings and channels' },
  events: { name: 'Events', description: 'Ticketed events, tiers, promos and check-in' },
  memberships: { name: 'Memberships', description: 'Membership plans' },
  employees: { name: 'Employees', description: 'Staff, cashiers and their PINs' },
  printers: { name: 'Printers', description: 'Receipt printers and print jobs' },
  statutory: { name: 'Statutory', description: 'Statutory settings and work permits' },
};

export const isAppSlug = (value: string): value is AppSlug =>
  (APP_SLUGS as readonly string[]).includes(value);
