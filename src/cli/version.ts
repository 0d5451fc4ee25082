// The release version: package.json's `version` (semantic versioning, CHANGELOG.md), read at run time so that it
// is stated once. The file sits two levels above both src/cli/ and dist/cli/.
import fs from 'node:fs';

export const VERSION = (
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
