import { z } from 'zod';
import { defineRoute } from '../../../http/route.ts';

/** /retail/products/import and /export: the catalogue as a CSV file (docs/RETAIL.md, "Catalogue CSV"). */

const tag = 'Retail';

/** A 20,000-row catalogue with long descriptions fits. */
const MAX_CSV_BYTES = 10_000_000;

export const catalogueImportBody = z.strictObject({
  csv: z
    .string({ error: 'must be the CSV file’s text' })
    .min(1, { error: 'is required' })
    .max(MAX_CSV_BYTES, { error: `must be at most ${MAX_CSV_BYTES} characters` })
    .describe('The file’s text: `,` or `;` between fields, a byte-order mark and CRLF lines allowed'),
});

const importSchema = z.object({
  object: z.literal('product_import'),
  rows: z.number().int().describe('Products and variants read from the file'),
  created: z.number().int(),
  updated: z.number().int(),
  archived: z.number().int(),
  unchanged: z.number().int(),
  categories_created: z.number().int(),
});

export const catalogueFileRoutes = [
  defineRoute({
    method: 'POST',
    path: '/retail/products/import',
    tag,
    summary: 'Import the catalogue from a CSV file',
    description:
      'Every row is checked first; any problem refuses the whole file with 400 `parameter_invalid` whose `details` name each one as `rows.<row>.<column>` (the header is row 1). Otherwise every row is applied in one transaction, through the same writes (and events) as the product routes: a row matches a product by SKU, then barcode, then by name when it has neither, and updates it; other rows create products. A row that changes nothing writes nothing, so importing the same file twice changes nothing the second time.',
    auth: 'secret',
    body: catalogueImportBody,
    maxBodyBytes: MAX_CSV_BYTES * 2,
    response: importSchema,
    handler: ({ body, auth, db, services }) => services.catalogueFile.importCsv(db, auth, body.csv),
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/products/export',
    tag,
    summary: 'Export the catalogue as a CSV file',
    description:
      'Every live product, then its variants, as the import reads them back: UTF-8 with a byte-order mark, CRLF lines, `,` between fields.',
    auth: 'secret',
    response: z.string(),
    contentType: 'text/csv',
    handler: ({ auth, db, services }) => services.catalogueFile.exportCsv(db, auth),
  }),
];
