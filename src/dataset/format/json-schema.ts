// JSON Schema of the import format (docs/import-format.schema.json), generated with TypeBox from collections.ts.
// Regenerate: node --import tsx src/dataset/format/json-schema.ts --write   (a test checks the file is current)
import fs from 'node:fs';
import { Type, type TSchema } from '@sinclair/typebox';
import { COLLECTIONS, DELETIONS, FORMAT_VERSION } from './collections.ts';
import type { ChildSpec, CollectionSpec, Field } from './fields.ts';

export const SCHEMA_FILE = new URL('../../../docs/import-format.schema.json', import.meta.url);

const DATE_PATTERN = '^\\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$';
const collectionOf = (table: string) => COLLECTIONS.find((c) => c.table === table)?.name ?? table;

function valueSchema(f: Field): TSchema {
  const description = f.ref
    ? `Id of ${collectionOf(f.ref.table)}${f.ref.catalog ? ` (Kind ${f.ref.catalog})` : ''}${f.ref.sameLedger ? ', same ledger' : ''}`
    : f.sibling
      ? `Id of an entry of ${f.sibling} in the same record`
      : undefined;
  const d = description ? { description } : {};
  switch (f.type) {
    case 'int':
      // Ids and references to them are positive: the importer refuses an Id below 1, and no record has one
      return Type.Integer({
        minimum: f.column === 'id' || f.ref || f.sibling ? 1 : -2147483648,
        maximum: 2147483647,
        ...d,
      });
    case 'decimal':
      return Type.Number({ description: 'exact decimal: the digits written are stored and exported as they are' });
    case 'string':
      return f.values ? Type.Union(f.values.map((v) => Type.Literal(v))) : Type.String();
    case 'date':
      return Type.String({ format: 'date', pattern: DATE_PATTERN });
    case 'datetime':
      return Type.String({ format: 'date-time', description: 'UTC, e.g. 2025-06-27T00:00:00Z' });
    case 'bool':
      return Type.Boolean();
  }
}

function properties(fields: Field[]): Record<string, TSchema> {
  return Object.fromEntries(
    fields.map((f) => [f.wire, f.required ? valueSchema(f) : Type.Optional(Type.Union([valueSchema(f), Type.Null()]))]),
  );
}

function childSchema(c: ChildSpec): TSchema {
  const item = c.scalar ? valueSchema(c.fields[0]) : Type.Object(properties(c.fields), { additionalProperties: false });
  return Type.Optional(Type.Union([Type.Array(item), Type.Null()]));
}

function recordSchema(spec: CollectionSpec): TSchema {
  const props = {
    ...properties(spec.fields),
    ...(spec.ledgerFrom
      ? {
          CompanyCodeId: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 2147483647,
              description: `filled from ${spec.ledgerFrom.field}; when given it must match`,
            }),
          ),
        }
      : {}),
    ...Object.fromEntries(spec.children.map((c) => [c.wire, childSchema(c)])),
  };
  if (!spec.kinds) return Type.Object(props, { additionalProperties: false });
  return Type.Union(
    Object.entries(spec.kinds).map(([kind, k]) =>
      Type.Object(
        {
          ...props,
          Kind: Type.Literal(kind),
          ...properties(k.detail?.fields ?? []),
          ...Object.fromEntries(k.children.map((c) => [c.wire, childSchema(c)])),
        },
        { additionalProperties: false, title: kind },
      ),
    ),
  );
}

export function importFormatSchema(): TSchema {
  return Type.Object(
    {
      Format: Type.Optional(Type.Literal(FORMAT_VERSION)),
      ...Object.fromEntries(COLLECTIONS.map((c) => [c.name, Type.Optional(Type.Array(recordSchema(c)))])),
      [DELETIONS]: Type.Optional(
        Type.Array(
          Type.Object(
            {
              Collection: Type.Union(COLLECTIONS.map((c) => Type.Literal(c.name))),
              Id: Type.Integer({ minimum: 1 }),
            },
            { additionalProperties: false },
          ),
        ),
      ),
    },
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'wohnapi import/export document',
      description: 'Collections in this order (dependency order); see docs/import-format.md',
      additionalProperties: false,
    },
  );
}

export const schemaText = () => `${JSON.stringify(importFormatSchema(), null, 2)}\n`;

if (process.argv.includes('--write') && process.argv[1]?.endsWith('json-schema.ts'))
  fs.writeFileSync(SCHEMA_FILE, schemaText());
