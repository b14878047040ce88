// Writes docs/schema/spec.schema.json from src/spec-file/schema.ts, the one definition of the spec format.
//   node scripts/gen-spec-schema.mjs          regenerate the file
//   node scripts/gen-spec-schema.mjs --check  exit 1 if the committed file is out of date
// test/spec-file/spec-docs.test.ts fails whenever the file and the schema disagree.
import { join } from 'node:path';
import { importSource, root, writeOrCheck } from './schema-file.mjs';

// The schema is TypeScript; bundle it (with zod) into one module and import that from memory.
const { specJsonSchemaText } = await importSource('src/spec-file/schema.ts');
await writeOrCheck(
  join(root, 'docs/schema/spec.schema.json'),
  specJsonSchemaText(),
  'scripts/gen-spec-schema.mjs',
);
