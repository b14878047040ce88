import { type CST, Parser, parseDocument, type YAMLError } from 'yaml';
import { isRequestError } from '../errors.js';
import { type SpecProblem, specError } from './format-problems.js';

export type SpecFormat = 'yaml' | 'json';

const EMPTY = 'the document is empty; expected a mapping with "version" and "stages"';

// A valid spec nests 5 levels deep (stages, a stage, env, a value). Far deeper documents are refused
// before they reach the YAML composer, whose recursion could otherwise exhaust the stack and, in V8,
// end the process rather than throw.
const MAX_DEPTH = 32;
const TOO_DEEP = `collections are nested more than ${MAX_DEPTH} levels deep; a spec needs at most 5`;

// The text of a spec as plain data. Syntax errors, all of them, with line and column; an empty
// document is its own error. Everything else is left to the schema.
export function parseSpecText(text: string, format: SpecFormat, label: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  if (nestingDepth(body) > MAX_DEPTH)
    throw specError('spec.invalid', label, [{ path: [], message: TOO_DEEP }]);
  const value = format === 'json' ? parseJson(body, label) : parseYaml(body, label);
  if (value === null || value === undefined)
    throw specError('spec.empty', label, [{ path: [], message: EMPTY }]);
  return value;
}

function parseYaml(text: string, label: string): unknown {
  try {
    // YAML 1.2: `yes`, `no` and `on` are strings, not booleans; duplicate keys are errors.
    const document = parseDocument(text, {
      version: '1.2',
      uniqueKeys: true,
      prettyErrors: true,
      logLevel: 'error',
    });
    const problems = [...document.errors, ...document.warnings].map(yamlProblem);
    if (problems.length > 0) throw specError('spec.syntax', label, problems);
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (isRequestError(error)) throw error;
    // The parser itself gave up (an unresolved alias, too many aliases, nesting too deep).
    throw specError('spec.syntax', label, [{ path: [], message: firstLine(error) }]);
  }
}

function yamlProblem(error: YAMLError): SpecProblem {
  const message = firstLine(error).replace(/ at line \d+, column \d+:?$/, '');
  const at = error.linePos?.[0];
  return { path: [], message: at ? `line ${at.line}, column ${at.col}: ${message}` : message };
}

// JSON.parse decides what is valid JSON; the YAML parser (JSON is YAML) only helps to say where, and
// finds duplicate keys, which JSON.parse silently resolves to the last one.
function parseJson(text: string, label: string): unknown {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw specError('spec.syntax', label, [jsonProblem(text, firstLine(error))]);
  }
  const duplicates = yamlErrors(text).filter((error) => error.code === 'DUPLICATE_KEY');
  if (duplicates.length > 0) throw specError('spec.syntax', label, duplicates.map(yamlProblem));
  return value;
}

function jsonProblem(text: string, message: string): SpecProblem {
  const position = /at position (\d+)/.exec(message);
  const reason = message
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ at position \d+.*$/, '')
    .replace(/^(Unexpected token .+?), .* is not valid JSON$/, '$1');
  const cleaned = `not valid JSON: ${reason}`;
  if (position) {
    const offset = Number(position[1]);
    const before = text.slice(0, offset).split('\n');
    return { path: [], message: `line ${before.length}, column ${before.at(-1)!.length + 1}: ${cleaned}` };
  }
  const at = yamlErrors(text)[0]?.linePos?.[0];
  return { path: [], message: at ? `line ${at.line}, column ${at.col}: ${cleaned}` : cleaned };
}

function yamlErrors(text: string): YAMLError[] {
  try {
    return parseDocument(text, { schema: 'json', uniqueKeys: true, prettyErrors: true, logLevel: 'error' })
      .errors;
  } catch {
    return [];
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || 'the parser failed';
}

// Depth of the deepest collection, from the YAML parser's concrete syntax tree, which it builds
// without recursion. JSON is YAML here, so this covers both formats.
function nestingDepth(text: string): number {
  let deepest = 0;
  try {
    const pending: [CST.Token | undefined, number][] = Array.from(new Parser().parse(text), (token) => [
      token,
      0,
    ]);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [token, depth] = next;
      if (token === undefined) continue;
      deepest = Math.max(deepest, depth);
      if (token.type === 'document') pending.push([token.value, depth]);
      if ('items' in token && Array.isArray(token.items)) {
        for (const item of token.items)
          pending.push([item.key ?? undefined, depth + 1], [item.value, depth + 1]);
      }
    }
  } catch {
    // Left to the real parse to report.
  }
  return deepest;
}
