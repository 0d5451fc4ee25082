// Column values of the import format: the calendar check of dates and date-times (leap years without a Date object),
// and decimals kept digit for digit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ColumnProblem, plainDecimal, toColumn } from './format/values.ts';
import { realDate } from '../db/values.ts';

const valid = (type: 'date' | 'datetime', text: string) => !(toColumn(type, text) instanceof ColumnProblem);

describe('import values: dates', () => {
  it('accepts the 29th of February in leap years only (every 4th year, not centuries, but every 400th)', () => {
    for (const day of ['2024-02-29', '2000-02-29', '1996-02-29', '2400-02-29']) assert.ok(valid('date', day), day);
    for (const day of ['2023-02-29', '1900-02-29', '2100-02-29', '2024-02-30', '0000-01-01'])
      assert.ok(!valid('date', day), day);
  });

  it('knows the length of every month', () => {
    for (const day of ['2021-01-31', '2021-03-31', '2021-04-30', '2021-06-30', '2021-12-31'])
      assert.ok(valid('date', day), day);
    for (const day of ['2021-04-31', '2021-06-31', '2021-09-31', '2021-11-31', '2021-13-01', '2021-00-10'])
      assert.ok(!valid('date', day), day);
  });

  it('checks the day of a date-time the same way', () => {
    assert.ok(valid('datetime', '2024-02-29T12:00:00Z'));
    assert.deepEqual(
      toColumn('datetime', '2023-02-29T12:00:00Z'),
      new ColumnProblem("'2023-02-29T12:00:00Z' is not a valid UTC date-time (YYYY-MM-DDThh:mm:ssZ)"),
    );
    assert.deepEqual(
      toColumn('date', '2021-02-30'),
      new ColumnProblem("'2021-02-30' is not a valid date (YYYY-MM-DD)"),
    );
  });
});

describe('import values: the calendar check against the Date object', () => {
  /** The same question asked of a Date (from the year 1 on; setUTCFullYear takes years below 100 as they are). */
  const byDate = (year: number, month: number, day: number) => {
    if (year < 1 || month < 1 || month > 12 || day < 1) return false;
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');

  it('answers as the Date object does for every year, month and day written with digits', () => {
    fc.assert(
      fc.property(fc.nat(9999), fc.nat(13), fc.nat(32), (year, month, day) => {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        assert.equal(realDate(text), byDate(year, month, day), text);
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes nothing but YYYY-MM-DD written with ASCII digits', () => {
    for (const text of [
      '2024-1-01',
      '2024-01-1',
      '24-01-01',
      '2024/01/01',
      '2024-01-01 ',
      ' 2024-01-01',
      '２０２４-01-01',
      '2024-0a-01',
      '+024-01-01',
      '2024-01-01T00:00:00Z',
      '',
    ])
      assert.equal(realDate(text), false, JSON.stringify(text));
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) assert.equal(realDate(text), false, JSON.stringify(text));
      }),
    );
  });
});

describe('import values: decimals', () => {
  const decimalText = fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,20}$/)),
      fc.option(fc.stringMatching(/^\d{1,12}$/)),
    )
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`);

  it('keeps a decimal without an exponent as written, as the exponent path writes it', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const plain = plainDecimal(text);
        assert.equal(plain, plainDecimal(`${text}e0`), text);
        assert.equal(plain, plainDecimal(`${text}E+0`), text);
        assert.equal(plain, /[1-9]/.test(text) ? text : text.replace(/^-/, ''), text);
      }),
      { numRuns: 5_000 },
    );
  });

  it('drops the sign of a negative zero and keeps every written digit', () => {
    assert.equal(plainDecimal('-0'), '0');
    assert.equal(plainDecimal('-0.00'), '0.00');
    assert.equal(plainDecimal('-0.01'), '-0.01');
    assert.equal(plainDecimal('1234.50'), '1234.50');
    assert.equal(plainDecimal('1.5e2'), '150');
    assert.equal(plainDecimal('-25e-3'), '-0.025');
  });
});
