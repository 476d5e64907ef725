import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { ProviderOutcome } from './provider.ts';

/**
 * After commit: asks the provider to start a payment or payout and keeps the
 * reference it answers with; a provider that refuses or cannot be reached
 * fails the row with `provider_error` through its own outcome path.
 */
export async function startAtProvider(
  database: Database,
  row: { table: 'payments' | 'payouts'; id: string; provider: string },
  start: () => Promise<{ reference: string | null }>,
  fail: (outcome: ProviderOutcome) => Promise<void>,
  logger: Logger,
  failureMessage: string,
): Promise<void> {
  try {
    const { reference } = await start();
    if (reference) {
      await database.pool.query(
        `UPDATE ${row.table} SET provider_reference = $2 WHERE id = $1 AND provider_reference IS NULL`,
        [row.id, reference],
      );
    }
  } catch (error) {
    logger.error({ err: error }, `provider ${row.provider} refused ${row.id}`);
    await fail({ status: 'failed', reference: null, failureCode: 'provider_error', failureMessage });
  }
}
