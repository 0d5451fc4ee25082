// The compiled serializers give the same JSON as the generic path they replace: `stripNulls` (unless nulls are
// kept) followed by fast-json-stringify, Fastify's serializer for response schemas — for random values of the
// response shapes the API uses. Decimal text is the one intended difference: written as it is (exact).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { compileSerializer, compileSerializers } from './serializer.ts';
import { stripNulls } from './response.ts';
import { AllocationGroupBase } from '../running-cost/schemas.ts';
import { CodeRef, WireObject } from './schemas.ts';

const Shape = Type.Array(
  WireObject({
    Id: Type.Integer(),
    Name: Type.String(),
    Amount: Type.Number(),
    Flag: Type.Boolean(),
    Ref: CodeRef,
    List: Type.Array(CodeRef),
    Day: Type.String({ format: 'date' }),
  }),
);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 3 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 5 });
const ref = fc.record({ Id: maybe(fc.integer()), Code: maybe(fc.string()) }, { requiredKeys: [] });
const item = fc.record(
  {
    Id: maybe(fc.integer()),
    Name: maybe(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('a"b', 'c\\d', 'e\nf', '\u2028'))),
    Amount: maybe(fc.oneof(fc.double({ noNaN: true }), fc.integer())),
    Flag: maybe(fc.boolean()),
    Ref: maybe(ref),
    List: maybe(fc.array(ref, { maxLength: 3 })),
    Day: optional(maybe(fc.constant('2026-01-31'))),
  },
  { requiredKeys: [] },
);

test('compiled serializers equal stripNulls + fast-json-stringify, nulls omitted and kept', () => {
  const generic = fastJson(Shape);
  const { omit, keep } = compileSerializers(Shape) ?? assert.fail('Shape must compile');
  fc.assert(
    fc.property(fc.array(item, { maxLength: 4 }), (value) => {
      assert.equal(keep(value), generic(structuredClone(value)));
      assert.equal(omit(value), generic(stripNulls(structuredClone(value))));
    }),
  );
});

test('the AllocationGroupBase response shape compiles, and decimal text is written exactly', () => {
  assert.ok(compileSerializers(Type.Array(AllocationGroupBase)));
  const decimals = compileSerializer(WireObject({ A: Type.Number(), B: Type.Number(), C: Type.Number() }), true);
  assert.ok(decimals);
  assert.equal(
    decimals({ A: '12.50', B: '0.1000000000000000000001', C: 3 }),
    '{"A":12.50,"B":0.1000000000000000000001,"C":3}',
  );
  // text that is not a JSON number is converted as fast-json-stringify does
  assert.equal(decimals({ A: ' 7', B: '1e400', C: null }), '{"A":7,"B":null}');
  assert.throws(() => decimals({ A: 'x' }), /cannot be converted to a number/);
});

test('schemas with parts the compiler does not know compile to undefined (the generic path is kept)', () => {
  assert.equal(compileSerializer(Type.Union([Type.String(), Type.Integer()]), true), undefined);
  assert.equal(compileSerializer(Type.Object({ a: Type.String() }), true), undefined); // open object
  assert.equal(compileSerializer(Type.Record(Type.String(), Type.String()), true), undefined);
});

test('a required property left out fails as in fast-json-stringify', () => {
  const s = compileSerializer(Type.Object({ a: Type.String() }, { additionalProperties: false }), true);
  assert.ok(s);
  assert.throws(() => s({}), /"a" is required!/);
  assert.equal(s({ a: 'x' }), '{"a":"x"}');
});
