import { RequestError } from '../errors.js';

// The text of a built-in check of the staged output (--expect, a spec file's `expect:`), read here
// where the request is read, so that the spec schema can refuse a wrong one without importing the
// delivery that evaluates it (src/output/expectations.ts). Lines are counted as a reader sees them:
// every newline ends one, and a last line without a newline counts too (`printf 'a\nb'` has 2 lines,
// where `wc -l` says 1).
export type Expectation =
  | { text: string; kind: 'nonempty' }
  | { text: string; kind: 'json' }
  | { text: string; kind: 'lines'; op: '>=' | '<=' | '=='; count: number };

export const EXPECT_FORMS = 'nonempty, json, lines>=N, lines<=N or lines==N';

export function parseExpectation(text: string, where: string): Expectation {
  if (text === 'nonempty' || text === 'json') return { text, kind: text };
  const match = /^lines(>=|<=|==)(\d{1,15})$/.exec(text.replace(/\s+/g, ''));
  if (match) {
    return { text, kind: 'lines', op: match[1] as '>=' | '<=' | '==', count: Number(match[2]) };
  }
  throw new RequestError('usage.expect', `${where} ${JSON.stringify(text)}: expected one of ${EXPECT_FORMS}`);
}
