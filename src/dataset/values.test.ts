// Column values of the import format: the calendar check of dates and date-times (leap years without a Date object).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toColumn } from './format/values.ts';

const valid = (type: 'date' | 'datetime', text: string) => 'value' in toColumn(type, text);

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
    assert.deepEqual(toColumn('datetime', '2023-02-29T12:00:00Z'), {
      error: "'2023-02-29T12:00:00Z' is not a valid UTC date-time (YYYY-MM-DDThh:mm:ssZ)",
    });
    assert.deepEqual(toColumn('date', '2021-02-30'), { error: "'2021-02-30' is not a valid date (YYYY-MM-DD)" });
  });
});
