import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulDivHalfUp } from './integer-math.ts';
import {
  DEFAULT_SCALE_BARCODE_FORMAT,
  ean13CheckDigit,
  isValidEan13,
  labelQuantityMilli,
  parseScaleBarcode,
  pluKey,
  priceCheckDigit,
  scaleBarcodeFormatSchema,
  valueDigits,
} from './scale-barcode.ts';
import type { ScaleBarcodeFormat } from './scale-barcode.ts';

function makeFormat(overrides: Partial<ScaleBarcodeFormat> = {}): ScaleBarcodeFormat {
  return { ...DEFAULT_SCALE_BARCODE_FORMAT, ...overrides };
}

/** A label as a scale prints it: the twelve digits given, then the EAN-13 check digit. */
const label = (first12: string) => first12 + String(ean13CheckDigit(first12));

describe('ean13CheckDigit', () => {
  it('gives the check digit of known EAN-13 codes', () => {
    expect(ean13CheckDigit('400638133393')).toBe(1); // 4006381333931
    expect(ean13CheckDigit('590123412345')).toBe(7); // 5901234123457
    expect(isValidEan13('4006381333931')).toBe(true);
    expect(isValidEan13('4006381333932')).toBe(false);
  });

  it('catches every single-digit misread', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{12}$/),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 9 }),
        (first12, at, shift) => {
          const code = label(first12);
          const misread = code.slice(0, at) + String((Number(code[at]) + shift) % 10) + code.slice(at + 1);
          expect(isValidEan13(code)).toBe(true);
          expect(isValidEan13(misread)).toBe(false);
        },
      ),
    );
  });
});

describe('priceCheckDigit', () => {
  it('gives the GS1 examples: 2875 → 9, 14685 → 6', () => {
    expect(priceCheckDigit('2875')).toBe(9);
    expect(priceCheckDigit('14685')).toBe(6);
  });

  it('catches a single misread digit of a 4- or 5-digit value', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{4,5}$/),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (value, at, shift) => {
          const i = at % value.length;
          const misread = value.slice(0, i) + String((Number(value[i]) + shift) % 10) + value.slice(i + 1);
          expect(priceCheckDigit(misread)).not.toBe(priceCheckDigit(value));
        },
      ),
    );
  });

  it('refuses other lengths', () => {
    expect(() => priceCheckDigit('123')).toThrow(RangeError);
  });
});

describe('parseScaleBarcode', () => {
  it('reads the default "21 PPPPP WWWWW C" as a weight in grams', () => {
    expect(parseScaleBarcode(label('210012301250'), makeFormat())).toEqual({
      ok: true,
      label: { kind: 'weight', itemCode: '00123', value: 1250, baseBarcode: label('210012300000') },
    });
  });

  it('reads a price prefix as a price in the smallest unit', () => {
    expect(parseScaleBarcode(label('220012304750'), makeFormat())).toMatchObject({
      ok: true,
      label: { kind: 'price', itemCode: '00123', value: 4750 },
    });
  });

  it('is not a label when the prefix is in neither list, or the code is not 13 digits starting with 2', () => {
    expect(parseScaleBarcode(label('250012301250'), makeFormat())).toBeNull();
    expect(parseScaleBarcode(label('620123450001'), makeFormat())).toBeNull();
    expect(parseScaleBarcode('2100123012', makeFormat())).toBeNull();
    expect(parseScaleBarcode(label('210012301250'), makeFormat({ weight_prefixes: [] }))).toBeNull();
  });

  it('says so when the check digit is wrong or the value is zero', () => {
    const good = label('210012301250');
    const bad = good.slice(0, 12) + String((Number(good[12]) + 1) % 10);
    expect(parseScaleBarcode(bad, makeFormat())).toEqual({ ok: false, problem: 'check_digit' });
    expect(parseScaleBarcode(label('210012300000'), makeFormat())).toEqual({
      ok: false,
      problem: 'value_zero',
    });
  });

  it('reads a six-digit item code with a four-digit value', () => {
    expect(parseScaleBarcode(label('201234560750'), makeFormat({ item_code_digits: 6 }))).toMatchObject({
      ok: true,
      label: { itemCode: '123456', value: 750 },
    });
  });

  it('checks the price check digit where the format has one', () => {
    const format = makeFormat({ item_code_digits: 4, price_check_digit: true });
    const good = label(`22${'0123'}${priceCheckDigit('14685')}14685`);
    expect(parseScaleBarcode(good, format)).toMatchObject({
      ok: true,
      label: { kind: 'price', itemCode: '0123', value: 14685 },
    });
    const wrong = label(`22${'0123'}${(priceCheckDigit('14685') + 1) % 10}14685`);
    expect(parseScaleBarcode(wrong, format)).toEqual({ ok: false, problem: 'price_check_digit' });
  });

  it('reads back what a scale of any valid format prints', () => {
    const formats = fc
      .record({
        item_code_digits: fc.integer({ min: 4, max: 6 }),
        price_check_digit: fc.boolean(),
        kind: fc.constantFrom('weight' as const, 'price' as const),
        prefix: fc.constantFrom('20', '21', '22', '23', '24', '25', '26', '27', '28', '29'),
      })
      .filter((f) => scaleBarcodeFormatSchema.safeParse(formatOf(f)).success);
    function formatOf(f: {
      item_code_digits: number;
      price_check_digit: boolean;
      kind: string;
      prefix: string;
    }) {
      return makeFormat({
        item_code_digits: f.item_code_digits,
        price_check_digit: f.price_check_digit,
        weight_prefixes: f.kind === 'weight' ? [f.prefix as '20'] : [],
        price_prefixes: f.kind === 'price' ? [f.prefix as '20'] : [],
      });
    }
    fc.assert(
      fc.property(formats, fc.nat(), fc.nat(), (f, item, rawValue) => {
        const format = formatOf(f);
        const digits = valueDigits(format);
        const itemCode = String(item % 10 ** f.item_code_digits).padStart(f.item_code_digits, '0');
        const value = 1 + (rawValue % (10 ** digits - 1));
        const valueText = String(value).padStart(digits, '0');
        const check = format.price_check_digit ? String(priceCheckDigit(valueText)) : '';
        const parsed = parseScaleBarcode(label(f.prefix + itemCode + check + valueText), format);
        expect(parsed).toMatchObject({ ok: true, label: { kind: f.kind, itemCode, value } });
        if (parsed?.ok) {
          expect(isValidEan13(parsed.label.baseBarcode)).toBe(true);
          expect(parsed.label.baseBarcode.slice(0, 2 + f.item_code_digits)).toBe(f.prefix + itemCode);
          expect(Number(parsed.label.baseBarcode.slice(2 + f.item_code_digits, 12))).toBe(0);
        }
      }),
    );
  });
});

describe('scaleBarcodeFormatSchema', () => {
  it('takes the default', () => {
    expect(scaleBarcodeFormatSchema.parse(DEFAULT_SCALE_BARCODE_FORMAT)).toEqual(
      DEFAULT_SCALE_BARCODE_FORMAT,
    );
  });

  it('refuses a prefix in both lists, a prefix outside 20 to 29, and a value the check digit cannot cover', () => {
    const issues = (input: unknown) =>
      scaleBarcodeFormatSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(issues({ ...DEFAULT_SCALE_BARCODE_FORMAT, price_prefixes: ['21'] })).toEqual(['price_prefixes']);
    expect(issues({ ...DEFAULT_SCALE_BARCODE_FORMAT, weight_prefixes: ['19'] })).toEqual([
      'weight_prefixes.0',
    ]);
    expect(issues({ ...DEFAULT_SCALE_BARCODE_FORMAT, weight_prefixes: ['21', '21'] })).toEqual([
      'weight_prefixes',
    ]);
    expect(issues({ ...DEFAULT_SCALE_BARCODE_FORMAT, item_code_digits: 6, price_check_digit: true })).toEqual(
      ['item_code_digits'],
    );
    expect(issues({ ...DEFAULT_SCALE_BARCODE_FORMAT, item_code_digits: 7 })).toEqual(['item_code_digits']);
  });
});

describe('pluKey', () => {
  it('drops leading zeros and refuses what is not a PLU', () => {
    expect(pluKey('00123')).toBe('123');
    expect(pluKey('123')).toBe('123');
    expect(pluKey('00000')).toBeNull();
    expect(pluKey('AB-12')).toBeNull();
  });
});

describe('labelQuantityMilli', () => {
  const rice = { unit: 'kg' as const, price: 2900 };

  it('sells the weight on a weight label, and refuses it for pieces', () => {
    expect(labelQuantityMilli({ kind: 'weight', value: 1250 }, rice)).toEqual({
      ok: true,
      quantityMilli: 1250,
    });
    expect(labelQuantityMilli({ kind: 'weight', value: 1250 }, { unit: 'piece', price: 500 })).toEqual({
      ok: false,
      problem: 'weight_on_piece',
    });
  });

  it('divides a price by the price per kg, to the nearest gram, halves up', () => {
    // 1000 / 2900 kg = 0.3448… → 345 g
    expect(labelQuantityMilli({ kind: 'price', value: 1000 }, rice)).toEqual({
      ok: true,
      quantityMilli: 345,
    });
    // 1 / 2000 kg = 0.0005 exactly → rounds up to 1 g
    expect(labelQuantityMilli({ kind: 'price', value: 1 }, { unit: 'kg', price: 2000 })).toEqual({
      ok: true,
      quantityMilli: 1,
    });
    expect(labelQuantityMilli({ kind: 'price', value: 1 }, { unit: 'kg', price: 2001 })).toEqual({
      ok: false,
      problem: 'quantity_zero',
    });
  });

  it('gives back the grams weighed when the scale and the catalogue agree on the price (at least 1 per gram)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        (perKg, grams) => {
          const price = mulDivHalfUp(perKg, grams, 1000);
          expect(labelQuantityMilli({ kind: 'price', value: price }, { unit: 'kg', price: perKg })).toEqual({
            ok: true,
            quantityMilli: grams,
          });
        },
      ),
    );
  });

  it('sells whole pieces only on a price label for a piece product', () => {
    expect(labelQuantityMilli({ kind: 'price', value: 4500 }, { unit: 'piece', price: 1500 })).toEqual({
      ok: true,
      quantityMilli: 3000,
    });
    expect(labelQuantityMilli({ kind: 'price', value: 4000 }, { unit: 'piece', price: 1500 })).toEqual({
      ok: false,
      problem: 'price_not_whole_pieces',
    });
    expect(labelQuantityMilli({ kind: 'price', value: 4000 }, { unit: 'kg', price: 0 })).toEqual({
      ok: false,
      problem: 'quantity_zero',
    });
  });
});
