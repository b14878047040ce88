import { checkStageCount, checkTextSize } from '../inputs/limits.js';
import { findDuplicateNames, findProtoKeys } from './document-checks.js';
import { problemsFromIssues, specError } from './format-problems.js';
import { parseSpecText, type SpecFormat } from './parse-text.js';
import { readBounded, readSpecSource, STDIN_LABEL } from './read-source.js';
import { specSchema } from './schema.js';
import { type SpecInput, toSpecInput } from './to-spec-input.js';

// `safe-run -f FILE`: read, parse and validate a spec file; `-` reads it from stdin. Any problem
// is thrown as one RequestError listing every problem found, one line each.
// stageDir: what a stage's relative `cwd` is relative to, when not the spec file's directory (--cwd).
// text: the spec already read (a FIFO or a device, read with a bound by the CLI).
export function loadSpec(
  path: string,
  stdinText: () => string = readStdin,
  options: { stageDir?: string | undefined; text?: string | undefined } = {},
): SpecInput {
  const source = readSpecSource(path, stdinText, options.text);
  return parseSpec(source.text, { ...source, stageDir: options.stageDir ?? source.baseDir });
}

interface ParseSpecOptions {
  // Prefix of every message line: the file name as the user gave it.
  label: string;
  format: SpecFormat;
  // Directory that relative cwd, stdin and log-dir paths are relative to.
  baseDir: string;
  // What a stage's relative cwd is relative to; baseDir when not given.
  stageDir?: string;
}

// The same as loadSpec for text already in hand.
export function parseSpec(text: string, options: ParseSpecOptions): SpecInput {
  checkTextSize(text, options.label);
  const document = parseSpecText(text, options.format, options.label);
  checkStageCount(stageCount(document), options.label);
  const result = specSchema.safeParse(document);
  const problems = [
    ...(result.success ? [] : problemsFromIssues(result.error.issues)),
    ...findDuplicateNames(document),
    ...findProtoKeys(document),
  ];
  if (!result.success || problems.length > 0) throw specError('spec.invalid', options.label, problems);
  return toSpecInput(result.data, options.baseDir, options.stageDir);
}

function stageCount(document: unknown): number {
  const stages =
    typeof document === 'object' && document !== null && 'stages' in document ? document.stages : [];
  return Array.isArray(stages) ? stages.length : 0;
}

function readStdin(): string {
  return readBounded(0, STDIN_LABEL);
}
