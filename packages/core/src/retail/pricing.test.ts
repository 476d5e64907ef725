import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { MAX_AMOUNT } from '../money.ts';
import { itemCount, priceCart } from './pricing.ts';
import type { CartInput, CartLineInput, Discount, PricedCart, ProductId } from './pricing.ts';

const productId = (n: number | string): ProductId => `prod_${n}` as ProductId;

function makeLine(overrides: Partial<CartLineInput> = {}): CartLineInput {
  return {
    productId: productId('soap'),
    description: 'Sabuni ya kufulia',
    unitPrice: 5_000,
    quantityMilli: 1_000,
    taxRateBasisPoints: 1_800,
    ...overrides,
  };
}

function makeCart(lines: CartLineInput[], overrides: Partial<CartInput> = {}): CartInput {
  return { currency: 'TZS', lines, ...overrides };
}

/** Runs `action` and returns the AppError it throws. */
function appErrorOf(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('priceCart line amounts', () => {
  it('multiplies the unit price by whole pieces', () => {
    const cart = priceCart(makeCart([makeLine({ unitPrice: 5_000, quantityMilli: 2_000 })]));
    expect(cart.lines[0]).toMatchObject({ gross: 10_000, lineDiscount: 0, subtotal: 10_000, total: 10_000 });
    expect(cart.total).toBe(10_000);
  });

  it('prices weighed goods from thousandths and rounds half up', () => {
    // 0.750 kg at 3,333/kg is 2,499.75
    const weighed = priceCart(makeCart([makeLine({ unit: 'kg', unitPrice: 3_333, quantityMilli: 750 })]));
    expect(weighed.lines[0]?.gross).toBe(2_500);
    // 0.500 kg at 1/kg is exactly 0.5, which rounds up
    const half = priceCart(makeCart([makeLine({ unit: 'kg', unitPrice: 1, quantityMilli: 500 })]));
    expect(half.lines[0]?.gross).toBe(1);
    // 0.499 kg at 1/kg rounds down
    const under = priceCart(makeCart([makeLine({ unit: 'kg', unitPrice: 1, quantityMilli: 499 })]));
    expect(under.lines[0]?.gross).toBe(0);
  });

  it('charges the override price and keeps the catalogue price and reason', () => {
    const cart = priceCart(
      makeCart([
        makeLine({
          unitPrice: 5_000,
          quantityMilli: 3_000,
          priceOverride: { unitPrice: 4_500, reason: 'damaged box' },
        }),
      ]),
    );
    expect(cart.lines[0]).toMatchObject({
      listUnitPrice: 5_000,
      unitPrice: 4_500,
      gross: 13_500,
      priceOverride: { unitPrice: 4_500, reason: 'damaged box' },
    });
  });

  it('applies a percent line discount rounded half up', () => {
    const cart = priceCart(
      makeCart([makeLine({ unitPrice: 1_005, discount: { type: 'percent', basisPoints: 1_000 } })]),
    );
    // 10% of 1,005 is 100.5
    expect(cart.lines[0]).toMatchObject({ gross: 1_005, lineDiscount: 101, subtotal: 904 });
    expect(cart.lineDiscountTotal).toBe(101);
  });

  it('applies an amount line discount, up to the whole line', () => {
    const cart = priceCart(
      makeCart([makeLine({ unitPrice: 2_000, discount: { type: 'amount', amount: 2_000 } })]),
    );
    expect(cart.lines[0]).toMatchObject({ subtotal: 0, total: 0, tax: 0, net: 0 });
    expect(cart.total).toBe(0);
  });

  it('prices an empty cart to zero', () => {
    const cart = priceCart(makeCart([]));
    expect(cart).toMatchObject({ total: 0, subtotal: 0, taxTotal: 0, taxBreakdown: [], lines: [] });
  });
});

describe('priceCart VAT', () => {
  it('extracts 18% VAT from a tax-inclusive total', () => {
    const cart = priceCart(makeCart([makeLine({ unitPrice: 10_000 })]));
    // 10,000 × 1800 / 11800 = 1,525.42
    expect(cart.taxBreakdown).toEqual([{ rateBasisPoints: 1_800, gross: 10_000, net: 8_475, tax: 1_525 }]);
    expect(cart.lines[0]).toMatchObject({ tax: 1_525, net: 8_475 });
  });

  it('extracts tax once per rate, not per line, and splits it over the lines exactly', () => {
    // per line: round(100 × 18/118) = round(15.25) = 15, three times = 45;
    // per rate: round(300 × 18/118) = round(45.76) = 46
    const cart = priceCart(
      makeCart([makeLine({ unitPrice: 100 }), makeLine({ unitPrice: 100 }), makeLine({ unitPrice: 100 })]),
    );
    expect(cart.taxBreakdown).toEqual([{ rateBasisPoints: 1_800, gross: 300, net: 254, tax: 46 }]);
    expect(cart.lines.map((line) => line.tax)).toEqual([16, 15, 15]);
  });

  it('keeps a breakdown per rate, highest rate first, with exempt goods at zero', () => {
    const cart = priceCart(
      makeCart([
        makeLine({ unitPrice: 1_150, taxRateBasisPoints: 1_500 }),
        makeLine({ unitPrice: 3_000, taxRateBasisPoints: 0 }),
        makeLine({ unitPrice: 1_180, taxRateBasisPoints: 1_800 }),
      ]),
    );
    expect(cart.taxBreakdown).toEqual([
      { rateBasisPoints: 1_800, gross: 1_180, net: 1_000, tax: 180 },
      { rateBasisPoints: 1_500, gross: 1_150, net: 1_000, tax: 150 },
      { rateBasisPoints: 0, gross: 3_000, net: 3_000, tax: 0 },
    ]);
    expect(cart).toMatchObject({ total: 5_330, taxTotal: 330, netTotal: 5_000 });
  });
});

describe('priceCart order discount', () => {
  it('spreads an amount over the lines by largest remainder', () => {
    const cart = priceCart(
      makeCart([makeLine({ unitPrice: 100 }), makeLine({ unitPrice: 200 }), makeLine({ unitPrice: 300 })], {
        orderDiscount: { type: 'amount', amount: 100 },
      }),
    );
    // exact shares 16.67, 33.33, 50: floors give 99, the extra unit goes to 16.67
    expect(cart.lines.map((line) => line.orderDiscount)).toEqual([17, 33, 50]);
    expect(cart).toMatchObject({ subtotal: 600, orderDiscount: 100, total: 500 });
  });

  it('takes a percent of the subtotal after line discounts', () => {
    const cart = priceCart(
      makeCart(
        [
          makeLine({ unitPrice: 10_000, discount: { type: 'amount', amount: 1_000 } }),
          makeLine({ unitPrice: 1_000 }),
        ],
        {
          orderDiscount: { type: 'percent', basisPoints: 500 },
        },
      ),
    );
    expect(cart).toMatchObject({ grossTotal: 11_000, subtotal: 10_000, orderDiscount: 500, total: 9_500 });
    expect(cart.orderDiscountRule).toEqual({ type: 'percent', basisPoints: 500 });
  });

  it('can discount the whole order to zero', () => {
    const cart = priceCart(
      makeCart([makeLine(), makeLine({ unitPrice: 777 })], {
        orderDiscount: { type: 'percent', basisPoints: 10_000 },
      }),
    );
    expect(cart.total).toBe(0);
    expect(cart.lines.every((line) => line.total === 0)).toBe(true);
  });
});

describe('priceCart refusals', () => {
  it.each([
    [0, 'zero'],
    [-1_000, 'negative'],
    [1.5, 'fractional thousandths'],
  ])('refuses a quantity of %s (%s), naming the line', (quantityMilli) => {
    const error = appErrorOf(() =>
      priceCart(makeCart([makeLine(), makeLine(), makeLine({ quantityMilli })])),
    );
    expect(error.code).toBe('quantity_invalid');
    expect(Object.keys(error.details ?? {})).toEqual(['lines[2].quantityMilli']);
  });

  it('refuses part of a piece', () => {
    const error = appErrorOf(() => priceCart(makeCart([makeLine({ quantityMilli: 1_500 })])));
    expect(error.code).toBe('quantity_invalid');
  });

  it('refuses negative and fractional prices', () => {
    expect(appErrorOf(() => priceCart(makeCart([makeLine({ unitPrice: -1 })]))).details).toHaveProperty([
      'lines[0].unitPrice',
    ]);
    expect(appErrorOf(() => priceCart(makeCart([makeLine({ unitPrice: 10.5 })]))).code).toBe(
      'amount_invalid',
    );
    const override = appErrorOf(() =>
      priceCart(makeCart([makeLine({ priceOverride: { unitPrice: -5, reason: 'x' } })])),
    );
    expect(override.details).toHaveProperty(['lines[0].priceOverride.unitPrice']);
  });

  it('requires a reason for a price override', () => {
    const error = appErrorOf(() =>
      priceCart(makeCart([makeLine({ priceOverride: { unitPrice: 100, reason: '  ' } })])),
    );
    expect(error.code).toBe('parameter_missing');
    expect(error.details).toHaveProperty(['lines[0].priceOverride.reason']);
  });

  it('refuses a line discount above the line', () => {
    const error = appErrorOf(() =>
      priceCart(makeCart([makeLine({ unitPrice: 500, discount: { type: 'amount', amount: 501 } })])),
    );
    expect(error.code).toBe('discount_invalid');
    expect(error.details).toHaveProperty(['lines[0].discount.amount']);
  });

  it.each<Discount>([
    { type: 'percent', basisPoints: 10_001 },
    { type: 'percent', basisPoints: -1 },
    { type: 'amount', amount: -1 },
  ])('refuses the discount %o', (discount) => {
    expect(appErrorOf(() => priceCart(makeCart([makeLine({ discount })]))).code).toBe('discount_invalid');
    expect(appErrorOf(() => priceCart(makeCart([makeLine()], { orderDiscount: discount }))).code).toBe(
      'discount_invalid',
    );
  });

  it('refuses an order discount above the subtotal', () => {
    const error = appErrorOf(() =>
      priceCart(makeCart([makeLine({ unitPrice: 500 })], { orderDiscount: { type: 'amount', amount: 501 } })),
    );
    expect(error.code).toBe('discount_invalid');
    expect(error.details).toHaveProperty(['orderDiscount.amount']);
  });

  it('refuses a line priced in another currency', () => {
    const error = appErrorOf(() =>
      priceCart(makeCart([makeLine({ currency: 'TZS' }), makeLine({ currency: 'KES' })])),
    );
    expect(error.code).toBe('currency_mismatch');
    expect(error.details).toHaveProperty(['lines[1].currency']);
  });

  it('refuses tax rates outside 0 to 100%', () => {
    const error = appErrorOf(() => priceCart(makeCart([makeLine({ taxRateBasisPoints: 10_001 })])));
    expect(error.code).toBe('parameter_invalid');
    expect(error.details).toHaveProperty(['lines[0].taxRateBasisPoints']);
  });

  it('refuses ids without their prefix and empty descriptions', () => {
    expect(
      appErrorOf(() => priceCart(makeCart([makeLine({ productId: 'soap' as ProductId })]))).details,
    ).toHaveProperty(['lines[0].productId']);
    expect(appErrorOf(() => priceCart(makeCart([makeLine({ description: ' ' })]))).code).toBe(
      'parameter_missing',
    );
  });

  it('refuses amounts beyond the platform maximum without losing precision', () => {
    expect(priceCart(makeCart([makeLine({ unitPrice: MAX_AMOUNT })])).total).toBe(MAX_AMOUNT);
    expect(
      appErrorOf(() => priceCart(makeCart([makeLine({ unitPrice: MAX_AMOUNT, quantityMilli: 2_000 })]))).code,
    ).toBe('amount_invalid');
    expect(
      appErrorOf(() => priceCart(makeCart([makeLine({ unitPrice: MAX_AMOUNT }), makeLine({ unitPrice: 1 })])))
        .code,
    ).toBe('amount_invalid');
  });
});

// Random carts for the invariants. Amounts are kept small enough that the
// oracle below can compute them with plain numbers.
const discountArb = (maxAmount: number): fc.Arbitrary<Discount> =>
  fc.oneof(
    fc.record({ type: fc.constant('percent' as const), basisPoints: fc.integer({ min: 0, max: 10_000 }) }),
    fc.record({ type: fc.constant('amount' as const), amount: fc.integer({ min: 0, max: maxAmount }) }),
  );

const lineArb: fc.Arbitrary<CartLineInput> = fc
  .record({
    id: fc.integer({ min: 1, max: 20 }),
    unitPrice: fc.oneof(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 5_000_000 })),
    weighed: fc.boolean(),
    pieces: fc.integer({ min: 1, max: 50 }),
    thousandths: fc.integer({ min: 1, max: 20_000 }),
    taxRateBasisPoints: fc.oneof(fc.constantFrom(0, 1_500, 1_800), fc.integer({ min: 0, max: 10_000 })),
    override: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
    discountShare: fc.option(discountArb(10_000), { nil: undefined }),
  })
  .map(({ id, unitPrice, weighed, pieces, thousandths, taxRateBasisPoints, override, discountShare }) => {
    const quantityMilli = weighed ? thousandths : pieces * 1_000;
    const charged = override ?? unitPrice;
    const gross = Math.round((charged * quantityMilli) / 1_000);
    const line: CartLineInput = {
      productId: productId(id),
      description: `item ${id}`,
      unitPrice,
      unit: weighed ? 'kg' : 'piece',
      quantityMilli,
      taxRateBasisPoints,
    };
    if (override !== undefined) line.priceOverride = { unitPrice: override, reason: 'manager approved' };
    if (discountShare !== undefined) {
      // An amount discount is read as "per ten thousand of the gross", so it never exceeds the line.
      line.discount =
        discountShare.type === 'amount'
          ? { type: 'amount', amount: Math.floor((gross * discountShare.amount) / 10_000) }
          : discountShare;
    }
    return line;
  });

const cartArb: fc.Arbitrary<CartInput> = fc
  .record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
    orderDiscount: fc.option(discountArb(10_000), { nil: undefined }),
  })
  .map(({ lines, orderDiscount }) => {
    const cart = makeCart(lines);
    if (orderDiscount?.type === 'percent') cart.orderDiscount = orderDiscount;
    if (orderDiscount?.type === 'amount') {
      const subtotal = priceCart(cart).subtotal;
      cart.orderDiscount = { type: 'amount', amount: Math.floor((subtotal * orderDiscount.amount) / 10_000) };
    }
    return cart;
  });

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
const RUNS = { numRuns: 1_000 };

function summary(cart: PricedCart): unknown {
  return {
    total: cart.total,
    taxTotal: cart.taxTotal,
    subtotal: cart.subtotal,
    taxBreakdown: cart.taxBreakdown,
  };
}

describe('priceCart invariants over random carts', () => {
  it('adds the lines up to the total exactly', () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = priceCart(input);
        expect(sum(cart.lines.map((line) => line.total))).toBe(cart.total);
        expect(sum(cart.lines.map((line) => line.subtotal))).toBe(cart.subtotal);
        expect(sum(cart.lines.map((line) => line.orderDiscount))).toBe(cart.orderDiscount);
        expect(cart.total).toBe(cart.grossTotal - cart.lineDiscountTotal - cart.orderDiscount);
      }),
      RUNS,
    );
  });

  it('adds the tax breakdown up to the total exactly, and the line taxes to each rate', () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = priceCart(input);
        expect(sum(cart.taxBreakdown.map((group) => group.net + group.tax))).toBe(cart.total);
        expect(sum(cart.lines.map((line) => line.tax))).toBe(cart.taxTotal);
        expect(cart.netTotal + cart.taxTotal).toBe(cart.total);
        for (const group of cart.taxBreakdown) {
          const members = cart.lines.filter((line) => line.taxRateBasisPoints === group.rateBasisPoints);
          expect(sum(members.map((line) => line.total))).toBe(group.gross);
          expect(sum(members.map((line) => line.tax))).toBe(group.tax);
          // the documented rule, computed independently
          expect(group.tax).toBe(
            Math.round((group.gross * group.rateBasisPoints) / (10_000 + group.rateBasisPoints)),
          );
        }
      }),
      RUNS,
    );
  });

  it('never lets a discount or tax take a line below zero', () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        for (const line of priceCart(input).lines) {
          expect(line.lineDiscount).toBeGreaterThanOrEqual(0);
          expect(line.orderDiscount).toBeGreaterThanOrEqual(0);
          expect(line.subtotal).toBeLessThanOrEqual(line.gross);
          expect(line.total).toBeGreaterThanOrEqual(0);
          expect(line.total).toBeLessThanOrEqual(line.subtotal);
          expect(line.tax).toBeGreaterThanOrEqual(0);
          expect(line.net).toBeGreaterThanOrEqual(0);
          expect(line.net + line.tax).toBe(line.total);
        }
      }),
      RUNS,
    );
  });

  it('computes each line gross by the documented rule', () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        priceCart(input).lines.forEach((line) => {
          expect(line.gross).toBe(Math.round((line.unitPrice * line.quantityMilli) / 1_000));
        });
      }),
      RUNS,
    );
  });

  it('reaches the same totals whatever the order of the lines', () => {
    const withShuffle = cartArb
      .filter((cart) => cart.orderDiscount === undefined)
      .chain((cart) =>
        fc.tuple(
          fc.constant(cart),
          fc.shuffledSubarray([...cart.lines], {
            minLength: cart.lines.length,
            maxLength: cart.lines.length,
          }),
        ),
      );
    fc.assert(
      fc.property(withShuffle, ([input, shuffled]) => {
        expect(summary(priceCart({ ...input, lines: shuffled }))).toEqual(summary(priceCart(input)));
      }),
      RUNS,
    );
  });

  it('gives the same totals for n pieces on one line or one piece on each of n lines', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(0, 1_500, 1_800),
        (unitPrice, pieces, taxRateBasisPoints) => {
          const one = priceCart(
            makeCart([makeLine({ unitPrice, taxRateBasisPoints, quantityMilli: pieces * 1_000 })]),
          );
          const many = priceCart(
            makeCart(
              Array.from({ length: pieces }, () =>
                makeLine({ unitPrice, taxRateBasisPoints, quantityMilli: 1_000 }),
              ),
            ),
          );
          expect(summary(many)).toEqual(summary(one));
        },
      ),
      RUNS,
    );
  });
});

describe('itemCount', () => {
  it('counts pieces one each and a weighed or measured line once', () => {
    expect(
      itemCount([
        { unit: 'piece', quantityMilli: 3000 },
        { unit: 'kg', quantityMilli: 1250 },
        { unit: 'piece', quantityMilli: 1000 },
        { unit: 'litre', quantityMilli: 500 },
      ]),
    ).toBe(6);
    expect(itemCount([])).toBe(0);
  });
});
