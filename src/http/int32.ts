// The int32 range of every id and integer field of the interface. Apart from schemas.ts so that the CLI can check
// ids without loading the schema library (`wohnapi --help` stays fast).
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
