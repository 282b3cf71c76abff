// `npm run db:types`: writes server/src/platform/db/schema.gen.ts from the migrated schema;
// `npm run db:types -- --check` exits 1 when the file is stale.
import { writeFile } from 'node:fs/promises';
import { generateSchema, SCHEMA_FILE, schemaFileIsCurrent } from '../src/platform/db/schema-gen.js';

if (process.argv.includes('--check')) {
  if (!(await schemaFileIsCurrent())) {
    console.error('schema.gen.ts is stale: run `npm run db:types` and commit it');
    process.exit(1);
  }
  console.log('schema.gen.ts is current');
} else {
  await writeFile(SCHEMA_FILE, await generateSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
