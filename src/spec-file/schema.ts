import { z } from 'zod';
import { settingRows } from '../settings/table.js';
import { contractProblem, contractSchema, deliveryKeys } from './delivery-schema.js';
import { runSchema } from './run-schema.js';
import {
  booleanSchema,
  durationSchema,
  envMapSchema,
  exitCodesSchema,
  expected,
  sizeSchema,
  specValueSchema,
  stageNameSchema,
  textSchema,
} from './value-schemas.js';

// The one definition of the spec-file format. Validation, the TypeScript types and
// docs/schema/spec.schema.json (through specJsonSchema) all come from here.

// JSON Schema `default`s, kept beside the schema rather than applied by zod: a spec file reports only
// what it sets, so that command-line flags and DEFAULT_SETTINGS fill in the rest.
const DEFAULTS = new Map<unknown, unknown>();

function described<T extends z.ZodType>(schema: T, description: string, defaultValue?: unknown): T {
  const withMeta = schema.meta({ description });
  if (defaultValue !== undefined) DEFAULTS.set(withMeta, defaultValue);
  return withMeta;
}

// The pipeline-level keys that are settings, from SETTINGS_TABLE (src/settings/table.ts).
function settingKeys() {
  const shape: Record<string, z.ZodOptional<z.ZodType<unknown>>> = {};
  for (const row of settingRows()) {
    if (row.specKey === null) continue;
    shape[row.specKey] = described(
      specValueSchema(row.kind.spec).optional(),
      row.doc,
      row.kind.documented(row.default),
    );
  }
  return shape;
}

const stageObjectSchema = z.strictObject(
  {
    name: described(
      stageNameSchema().optional(),
      'Unique name shown in reports and used for log files. Default: the program basename, made unique (cat, cat-2).',
    ),
    run: described(
      runSchema(),
      'The command: an argv array (no shell), or one string in the inline grammar that yields exactly one stage.',
    ),
    env: described(
      envMapSchema().optional(),
      'Variables added to (or overriding) the inherited environment. Values must be strings.',
      {},
    ),
    cwd: described(
      textSchema('a directory path').optional(),
      "Working directory; a relative path is relative to the spec file's directory. Default: the directory safe-run was started in.",
    ),
    'ok-codes': described(exitCodesSchema().optional(), 'Exit codes that count as success.', [0]),
    contract: described(
      contractSchema(),
      "lenient: the codes the program's own exit-code contract calls not an error (grep 1, diff 1, pytest 5) count as success too (docs/exit-codes.md).",
      'strict',
    ),
    optional: described(
      booleanSchema().optional(),
      "An optional stage's failure is shown but never decides the verdict.",
      false,
    ),
    timeout: described(
      durationSchema().optional(),
      "This stage's time limit (10 is 10 seconds; 250ms, 2m, 1h, 1d; 0 is none). Default: none of its own.",
    ),
    'max-stdout': described(
      sizeSchema().optional(),
      "Bytes of this stage's stdout kept in the report. Default: the pipeline's max-stdout.",
    ),
    'max-stderr': described(
      sizeSchema().optional(),
      "Bytes of this stage's stderr kept in the report. Default: the pipeline's max-stderr.",
    ),
  },
  { error: expected('a stage: a mapping with at least "run"') },
);

// A variable set both in `run` ("FOO=1 cmd") and in `env` would leave a reviewer guessing which wins.
const stageSchema = stageObjectSchema.transform((stage, ctx) => {
  for (const key of Object.keys(stage.env ?? {})) {
    if (Object.hasOwn(stage.run.env, key)) {
      ctx.issues.push({
        code: 'custom',
        input: stage.env,
        path: ['env', key],
        message: `also set in "run"; set it in one place`,
      });
    }
  }
  if (stage.contract === 'lenient') {
    const problem = contractProblem(stage.run.argv);
    if (problem)
      ctx.issues.push({ code: 'custom', input: stage.contract, path: ['contract'], message: problem });
  }
  return stage;
});

export const specSchema = z
  .strictObject(
    {
      $schema: described(
        z.string({ error: expected('a string') }).optional(),
        'The JSON Schema this file follows, for editors; ignored by safe-run.',
      ),
      version: described(
        z.literal(1, {
          error: (issue) =>
            issue.input === undefined
              ? 'required: add "version: 1"'
              : expected('1, the only spec version this safe-run reads')(issue),
        }),
        'Spec format version; must be 1.',
      ),
      ...settingKeys(),
      output: described(
        deliveryKeys.output,
        "The last stage's stdout goes to this file (relative to the spec file's directory), replaced only when the run and every check pass (docs/publishing-outputs.md).",
      ),
      'keep-partial': described(
        deliveryKeys['keep-partial'],
        'Keep an output that was not published as FILE.partial.',
        false,
      ),
      expect: described(
        deliveryKeys.expect,
        'Checks on the output before it is published: nonempty, json, lines>=N, lines<=N, lines==N.',
      ),
      'expect-cmd': described(
        deliveryKeys['expect-cmd'],
        'Checker commands run on the staged output (its path replaces {} or is appended); exit 0 passes.',
      ),
      stages: described(
        z
          .array(stageSchema, {
            error: (issue) =>
              issue.input === undefined
                ? 'required: list the stages under "stages"'
                : expected('a non-empty list of stages')(issue),
          })
          .min(1, { error: expected('a non-empty list of stages') }),
        "The stages, in pipeline order: each one reads the previous stage's stdout.",
      ),
    },
    { error: expected('a mapping with "version" and "stages"') },
  )
  .meta({
    title: 'safe-run pipeline spec',
    description: 'A pipeline for `safe-run -f`: its stages, and what counts as success for each.',
  });

export const PIPELINE_KEYS: readonly string[] = Object.keys(specSchema.shape);
export const STAGE_KEYS: readonly string[] = Object.keys(stageObjectSchema.shape);

// A spec file after validation: durations in ms, sizes in bytes, `run` split into argv and env.
export type ParsedSpec = z.output<typeof specSchema>;

// The JSON Schema of the spec format, for `safe-run schema` and docs/schema/spec.schema.json.
export function specJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(specSchema, {
    io: 'input',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => {
      if (DEFAULTS.has(zodSchema)) jsonSchema.default = structuredClone(DEFAULTS.get(zodSchema));
    },
  }) as Record<string, unknown>;
}

// The content of docs/schema/spec.schema.json (scripts/gen-spec-schema.mjs may lay it out differently).
export function specJsonSchemaText(): string {
  return `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
}
