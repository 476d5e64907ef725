/** SKUs, barcodes and PLUs: each names one live item of the merchant and mode (`retail_codes`). */
import { AppError } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';

/** A SKU or barcode to register for an item, with the request field it came from. */
export interface CodeClaim {
  kind: 'sku' | 'barcode' | 'plu';
  code: string;
  field: string;
  productId: string;
  variantId: string | null;
}

export const codeClaims = (
  item: { sku?: string | null | undefined; barcodes?: string[] | undefined; plu?: string | null | undefined },
  productId: string,
  variantId: string | null,
  at: string,
): CodeClaim[] => [
  ...(item.sku ? [{ kind: 'sku' as const, code: item.sku, field: `${at}sku`, productId, variantId }] : []),
  ...(item.plu ? [{ kind: 'plu' as const, code: item.plu, field: `${at}plu`, productId, variantId }] : []),
  ...(item.barcodes ?? []).map((code, index) => ({
    kind: 'barcode' as const,
    code,
    field: `${at}barcodes.${index}`,
    productId,
    variantId,
  })),
];

const TAKEN = { sku: 'sku_taken', barcode: 'barcode_taken', plu: 'plu_taken' } as const;

const takenError = (claim: CodeClaim, message: string) =>
  new AppError(TAKEN[claim.kind], `${claim.field}: ${message}`, {
    details: { [claim.field]: message },
  });

/**
 * Registers SKUs and barcodes. Each names one live item of the merchant and
 * mode: a clash is a 400 naming the field (the UNIQUE index decides races).
 */
export async function claimCodes(db: Queryable, tenant: Tenant, claims: readonly CodeClaim[]): Promise<void> {
  if (claims.length === 0) return;
  const seen = new Map<string, CodeClaim>();
  for (const claim of claims) {
    const key = `${claim.kind}:${claim.code.toLowerCase()}`;
    const earlier = seen.get(key);
    if (earlier) throw takenError(claim, `repeats ${earlier.field}`);
    seen.set(key, claim);
  }
  const taken = await db.query<{ kind: string; code: string }>(
    `SELECT kind, lower(code) AS code FROM retail_codes WHERE merchant_id = $1 AND livemode = $2 AND lower(code) = ANY($3::text[])`,
    [tenant.merchantId, tenant.livemode, claims.map((claim) => claim.code.toLowerCase())],
  );
  for (const row of taken.rows) {
    const claim = seen.get(`${row.kind}:${row.code}`);
    if (claim) throw takenError(claim, `is already used by another product or variant`);
  }
  try {
    await db.query(
      `INSERT INTO retail_codes (merchant_id, livemode, kind, code, product_id, variant_id)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[])`,
      [
        tenant.merchantId,
        tenant.livemode,
        claims.map((claim) => claim.kind),
        claims.map((claim) => claim.code),
        claims.map((claim) => claim.productId),
        claims.map((claim) => claim.variantId),
      ],
    );
  } catch (error) {
    if (!isUniqueViolation(error, 'retail_codes_unique')) throw error;
    const kind = (['barcode', 'plu'] as const).find((k) => error.detail?.includes(`, ${k},`)) ?? 'sku';
    const claim = claims.find((c) => c.kind === kind) ?? claims[0]!;
    throw takenError(claim, 'is already used by another product or variant');
  }
}
