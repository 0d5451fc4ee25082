import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { DIALECTS } from '../../test/support/db.ts';
import { buildWorld } from './factories.ts';
import { loadDemo } from './demo/load.ts';
import { importFormatSchema, SCHEMA_FILE, schemaText } from './format/json-schema.ts';
import { exportText, withDb } from '../../test/support/dataset.ts';
import { first } from '../../test/support/lists.ts';

describe('import format JSON Schema', () => {
  it('docs/import-format.schema.json is generated from the format description (run json-schema.ts --write)', () => {
    assert.equal(fs.readFileSync(SCHEMA_FILE, 'utf8'), schemaText());
  });
});

for (const dialect of DIALECTS) {
  describe(`exports match the JSON Schema [${dialect}]`, () => {
    it('an export of demo and factory data validates; a misspelled field does not', () =>
      withDb(dialect, async (t) => {
        await loadDemo(t, { scale: 1, seed: 9 });
        await buildWorld(t.db);
        const ajv = new Ajv({ allErrors: true, strict: false });
        (addFormats as unknown as (a: Ajv) => void)(ajv);
        const validate = ajv.compile(importFormatSchema());
        const text = await exportText(t);
        const exported = JSON.parse(text) as { UseUnits: Record<string, unknown>[] };
        assert.ok(validate(exported), JSON.stringify(validate.errors?.slice(0, 3)));
        first(exported.UseUnits).useUnitNumber = 'x';
        assert.equal(validate(exported), false);
        // Ids and references below 1, which the importer refuses, are refused by the schema too
        for (const [field, value] of [
          ['Id', 0],
          ['EconomicUnitId', -1],
        ] as const) {
          const doc = JSON.parse(text) as { UseUnits: Record<string, unknown>[] };
          first(doc.UseUnits)[field] = value;
          assert.equal(validate(doc), false, field);
          assert.ok(validate.errors?.some((e) => e.instancePath === `/UseUnits/0/${field}` && e.keyword === 'minimum'));
        }
      }));
  });
}
