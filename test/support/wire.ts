// The one loose type of the tests: a JSON object on the wire, either an answer as `res.json()` hands it over or a
// document a test sends (often deliberately malformed). Tests read and write nested fields whose shapes are what
// they check, so the fields are left untyped here rather than restating the schemas under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the shape is what the test asserts
export type WireRecord = Record<string, any>;
