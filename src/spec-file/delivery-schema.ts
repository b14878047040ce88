import { z } from 'zod';
import { contractFor, knownTools } from '../contracts/explain-exit.js';
import { isRequestError } from '../errors.js';
import { EXPECT_FORMS, parseExpectation } from '../inputs/read-expectation.js';
import { booleanSchema, enumSchema, expected, quote, textSchema } from './value-schemas.js';

// The spec keys of docs/publishing-outputs.md: `output`, `keep-partial`, `expect`, `expect-cmd`,
// and a stage's `contract`. Kept together so that they move as one into a settings table.

function expectationSchema() {
  return textSchema(EXPECT_FORMS).refine(
    (text) => {
      try {
        parseExpectation(text, 'expect');
        return true;
      } catch (error) {
        if (isRequestError(error)) return false;
        throw error;
      }
    },
    { error: (issue) => `expected one of ${EXPECT_FORMS}; got ${quote(String(issue.input))}` },
  );
}

export const deliveryKeys = {
  output: textSchema('a file path').optional(),
  'keep-partial': booleanSchema().optional(),
  expect: z.array(expectationSchema(), { error: expected(`a list of checks: ${EXPECT_FORMS}`) }).optional(),
  'expect-cmd': z
    .union([textSchema('a command'), z.array(textSchema('a command'))], {
      error: expected('a command, or a list of commands'),
    })
    .optional(),
};

const CONTRACTS = ['strict', 'lenient'] as const;

export function contractSchema() {
  return enumSchema(CONTRACTS).optional();
}

// `contract: lenient` needs a contract to be lenient about: an unknown program is a mistake to say.
export function contractProblem(argv: readonly string[]): string | null {
  if (contractFor(argv)) return null;
  return `safe-run knows no exit-code contract for ${quote(argv[0] ?? '')}; known: ${knownTools().join(', ')} (or use ok-codes)`;
}
