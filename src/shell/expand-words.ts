import { execFile } from 'node:child_process';
import type { Assignment, Word } from '../model/shell-syntax.js';
import { monotonicMs } from '../monotonic-ms.js';
import { bashPath, quoteForBash } from './bash-path.js';
import { mayBraceExpand } from './brace-scan.js';
import { activePart } from './inert-word.js';
import { refusal, refuseConstruct } from './refuse.js';
import { helperEnvironment, type ShellState } from './shell-state.js';

// What to expand: a word into fields (split and globbed, as a command argument or a redirection
// target), one command's NAME=value prefixes into values (no splitting, left to right, each seeing
// the ones before it), or the word of a here-string into the text bash feeds (`<<< WORD`: expanded
// without splitting or globbing, and a newline added).
export type ExpansionRequest =
  | { kind: 'fields'; word: Word }
  | { kind: 'values'; assignments: Assignment[] }
  | { kind: 'here-string'; word: Word };

export interface ExpansionRun {
  results: string[][];
  // Milliseconds spent in the bash helper (0 when nothing needed it).
  helperMs: number;
}

const PRELUDE = [
  '__sr_out() { printf \'%s\\0\' "$#" "$@"; }',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
  '__sr_dump() { printf \'%s\\0\' "$#"; local __sr_n; for __sr_n; do printf \'%s\\0\' "${!__sr_n}"; done; }',
];

function needsBash(request: ExpansionRequest): boolean {
  return request.kind === 'values'
    ? request.assignments.some((a) => a.value.literal === null)
    : request.word.literal === null;
}

function substitutionsOf(word: Word): string {
  return word.substitutions.map((value, i) => `__sr_h${i}=${quoteForBash(value)}; `).join('');
}

// bash brace-expands command words only (not assignments, not a here-string's word); a word that
// cannot brace-expand is read with brace expansion off, which spares bash its quadratic search for
// matching braces (brace-scan.ts).
function braceSwitch(request: ExpansionRequest): string {
  return request.kind === 'fields' && mayBraceExpand(request.word) ? 'set -B; ' : 'set +B; ';
}

function requestLine(request: ExpansionRequest, status: number): string {
  const setStatus = `${braceSwitch(request)}__sr_q() { return ${status}; }; __sr_q; `;
  if (request.kind === 'fields') {
    return `${substitutionsOf(request.word)}${setStatus}__sr_out ${request.word.script}`;
  }
  if (request.kind === 'here-string') {
    // bash itself reads its here-string back (to the end: -d ''), newline included.
    const read = `IFS= read -r -d '' __sr_s <<< ${request.word.script}`;
    return `${substitutionsOf(request.word)}${setStatus}${read}; __sr_out "$__sr_s"`;
  }
  const subs = request.assignments.map((a) => substitutionsOf(a.value)).join('');
  const assigns = request.assignments.map((a) => `${a.name}=${a.value.script}`).join(' ');
  const names = request.assignments.map((a) => a.name).join(' ');
  return `${subs}${setStatus}${assigns} __sr_dump ${names}`;
}

// The script the helper bash runs. It is built only from words the parser accepted, which cannot
// execute anything: no command or process substitution, no arithmetic, no assignment by expansion.
export function expansionScript(requests: ExpansionRequest[], state: ShellState): string {
  const vars = Object.entries(state.vars).map(([name, value]) => `${name}=${quoteForBash(value)}`);
  return [...PRELUDE, ...vars, ...requests.map((r) => requestLine(r, state.status))].join('\n');
}

// Expands words exactly as bash does, in the step's directory and environment: literal words are
// taken as they are; the others go to one `bash --norc --noprofile` run for all of them.
export async function expandWords(requests: ExpansionRequest[], state: ShellState): Promise<ExpansionRun> {
  const direct = (request: ExpansionRequest): string[] => {
    if (request.kind === 'fields') return [request.word.literal!];
    if (request.kind === 'here-string') return [`${request.word.literal!}\n`];
    return request.assignments.map((a) => a.value.literal!);
  };
  const asked = requests.filter(needsBash);
  if (asked.length === 0) return { results: requests.map(direct), helperMs: 0 };
  for (const request of asked) checkInert(request);
  const t0 = monotonicMs();
  const output = await runHelper(expansionScript(asked, state), state, asked);
  const helperMs = monotonicMs() - t0;
  const fields = decodeFields(output, asked);
  let at = 0;
  const expanded = asked.map(() => {
    const count = Number(fields[at]);
    const values = fields.slice(at + 1, at + 1 + count);
    at += 1 + count;
    return values;
  });
  let next = 0;
  return { results: requests.map((r) => (needsBash(r) ? expanded[next++]! : direct(r))), helperMs };
}

// The helper's NUL-separated fields as text. A field that is not UTF-8 (`$'\xe9'`, a file name in
// Latin-1) could only reach a stage altered, since Node passes arguments as UTF-8 strings: the step is
// refused when it is reached, naming the word, rather than run with other bytes than bash would use.
function decodeFields(output: Buffer, asked: ExpansionRequest[]): string[] {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const fields: string[] = [];
  let start = 0;
  for (let nul = output.indexOf(0); nul >= 0; nul = output.indexOf(0, start)) {
    const bytes = output.subarray(start, nul);
    try {
      fields.push(strict.decode(bytes));
    } catch {
      refuseBytes(asked, fields);
    }
    start = nul + 1;
  }
  fields.push(output.subarray(start).toString('utf8'));
  return fields;
}

// Refuses the word whose expansion was being read when `fields` (the fields read so far) stopped.
function refuseBytes(asked: ExpansionRequest[], fields: string[]): never {
  let at = 0;
  let request = asked[0]!;
  for (const candidate of asked) {
    request = candidate;
    const count = Number(fields[at]);
    if (at + 1 + count > fields.length) break;
    at += 1 + count;
  }
  const word = wordOf(request);
  refuseConstruct(
    'expansion.bytes',
    word.raw,
    word.col,
    'expands to bytes that are not UTF-8, which safe-run cannot pass to a program unchanged',
  );
}

// The helper gets the shell's variables and the words in one `bash -c` string, which the kernel takes
// up to 128 KiB (bash, holding them in its own memory, has no such limit): past it, the step is
// refused when reached rather than failing as an internal error.
function tooLarge(asked: ExpansionRequest[]): Error {
  const word = wordOf(asked[0]!);
  return refusal(
    'expansion.size',
    word.raw,
    word.col,
    "needs the shell's variables and words in one command line, over the kernel's limit of 128 KiB for one string",
  );
}

// Nothing reaches the helper that would make it run a command: whatever the parser accepted, each word
// is read once more, as bash will read it, before it is handed over.
function checkInert(request: ExpansionRequest): void {
  const words = request.kind === 'values' ? request.assignments.map((a) => a.value) : [request.word];
  for (const word of words) {
    const active = activePart(word.script);
    if (active !== null) {
      refuseConstruct(
        'expansion.active',
        word.raw,
        word.col,
        `holds ${active}, which would run or evaluate code`,
      );
    }
  }
}

// The word a request names in a refusal (a NAME=value prefix's first value).
function wordOf(request: ExpansionRequest): Word {
  return request.kind === 'values' ? request.assignments[0]!.value : request.word;
}

function runHelper(script: string, state: ShellState, asked: ExpansionRequest[]): Promise<Buffer> {
  const failed = (error: Error, stderr = '') =>
    (error as NodeJS.ErrnoException).code === 'E2BIG'
      ? tooLarge(asked)
      : new Error(`the expansion helper failed: ${stderr.trim() || error.message}`);
  return new Promise((resolve, reject) => {
    // Node throws some spawn errors (E2BIG among them) at once instead of passing them on.
    try {
      execFile(
        bashPath(),
        // `bash` as $0, as in `bash -c TEXT` (argv0 does not reach bash through execFile).
        ['--norc', '--noprofile', '-c', script, 'bash'],
        {
          cwd: state.cwd,
          env: helperEnvironment(state),
          maxBuffer: 256 * 1024 * 1024,
          encoding: 'buffer',
        },
        (error: Error | null, stdout: Buffer, stderr: Buffer) =>
          error ? reject(failed(error, stderr.toString())) : resolve(stdout),
      );
    } catch (error) {
      reject(failed(error as Error));
    }
  });
}
