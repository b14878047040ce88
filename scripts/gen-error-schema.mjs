// Writes docs/schema/request-error.schema.json: the JSON document `--json` prints for a refused
// request (exit 125), its codes from REQUEST_ERROR_CODES (src/model/request-error-codes.ts).
//   node scripts/gen-error-schema.mjs          regenerate the file
//   node scripts/gen-error-schema.mjs --check  exit 1 if the committed file is out of date
// test/errors.test.ts fails whenever the file and the list disagree.
import { join } from 'node:path';
import { importSource, root, writeOrCheck } from './schema-file.mjs';

const { REQUEST_ERROR_CODES } = await importSource('src/model/request-error-codes.ts');

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://safe-run.dev/schema/request-error.schema.json',
  title: 'safe-run refused request',
  description:
    'What `safe-run --json` prints on stdout instead of a report when it refuses the request before anything starts (exit 125). The codes are listed in docs/exit-codes.md.',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'ok', 'exitCode', 'reason', 'next', 'error'],
  properties: {
    schemaVersion: { const: 1 },
    ok: { const: false },
    exitCode: { const: 125 },
    reason: {
      type: 'string',
      description:
        'The refusal in one line: "refused before anything ran: " and the message (its lines joined by "; ").',
    },
    next: {
      type: 'string',
      description:
        'That nothing ran, and what kind of fix the request needs (the text, a spec file, the command line).',
    },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'column', 'message'],
      properties: {
        code: { enum: [...REQUEST_ERROR_CODES], description: 'What was refused (docs/exit-codes.md).' },
        column: {
          type: ['integer', 'null'],
          minimum: 1,
          description:
            'The 1-based column in the -c text the problem is at; null when it is not about a place in it.',
        },
        message: {
          type: 'string',
          description: 'The message printed on stderr, secrets masked; one line per problem.',
        },
      },
    },
  },
};

await writeOrCheck(
  join(root, 'docs/schema/request-error.schema.json'),
  `${JSON.stringify(schema, null, 2)}\n`,
  'scripts/gen-error-schema.mjs',
);
