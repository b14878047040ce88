import { z } from 'zod';
import { isRequestError } from '../errors.js';
import { type InlineStage, parseInline } from '../inputs/inline-grammar.js';
import { argvSchema, expected, quote, textSchema } from './value-schemas.js';

const RUN_EXPECTED = 'a non-empty array of strings, or one string in the inline grammar';

// `run` as one string goes through the same grammar as `safe-run -c`, and must name exactly one stage.
export function runSchema() {
  return z
    .union([argvSchema(), textSchema(RUN_EXPECTED)], {
      error: (issue) =>
        issue.input === undefined
          ? `required: the command to run, as ${RUN_EXPECTED}`
          : expected(RUN_EXPECTED)(issue),
    })
    .transform((run, ctx): InlineStage => {
      if (Array.isArray(run)) return { argv: run, env: {} };
      try {
        const stages = parseInline(run);
        const stage = stages[0];
        if (stages.length === 1 && stage && stage.argv.length > 0) return stage;
        ctx.issues.push({
          code: 'custom',
          input: run,
          message:
            stages.length > 1
              ? `expected one stage, but ${quote(run)} is a pipeline of ${stages.length}; declare each as its own stage`
              : `${quote(run)} names no command`,
        });
      } catch (error) {
        if (!isRequestError(error)) throw error;
        ctx.issues.push({ code: 'custom', input: run, message: inSpecTerms(error.message) });
      }
      return z.NEVER;
    });
}

// The grammar's messages speak of `-c` and the command line; in a spec the same advice reads differently.
function inSpecTerms(message: string): string {
  return message
    .replace(/^-c: /, '')
    .replace("or run: safe-run -- bash -c '...'", 'or write run: [bash, -c, "..."]');
}
