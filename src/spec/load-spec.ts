import { readFileSync } from 'node:fs';
import { findDuplicateNames } from './find-duplicate-names.js';
import { problemsFromIssues, specError } from './format-problems.js';
import { parseSpecText, type SpecFormat } from './parse-text.js';
import { readSpecSource } from './read-source.js';
import { specSchema } from './schema.js';
import { type SpecInput, toSpecInput } from './to-spec-input.js';

export type { SpecInput } from './to-spec-input.js';

// `safe-run -f FILE`: read, parse and validate a spec file; `-` reads it from stdin. Any problem
// is thrown as one RequestError listing every problem found, one line each.
// `text`: the spec already read (a FIFO or a device, read with a bound by the CLI).
export function loadSpec(path: string, stdinText: () => string = readStdin, text?: string): SpecInput {
  const source = readSpecSource(path, stdinText, text);
  return parseSpec(source.text, source);
}

export interface ParseSpecOptions {
  // Prefix of every message line: the file name as the user gave it.
  label: string;
  format: SpecFormat;
  // Directory that relative cwd, stdin and log-dir paths are relative to.
  baseDir: string;
}

// The same as loadSpec for text already in hand.
export function parseSpec(text: string, options: ParseSpecOptions): SpecInput {
  const document = parseSpecText(text, options.format, options.label);
  const result = specSchema.safeParse(document);
  const problems = [
    ...(result.success ? [] : problemsFromIssues(result.error.issues)),
    ...findDuplicateNames(document),
  ];
  if (!result.success || problems.length > 0) throw specError('spec.invalid', options.label, problems);
  return toSpecInput(result.data, options.baseDir);
}

function readStdin(): string {
  return readFileSync(0, 'utf8');
}
