import type { SimpleCommand, Word } from '../model/shell-syntax.js';
import { refuseConstruct } from './refuse.js';

// Bash builtins that also exist as programs or that people type as commands. They run inside a
// `bash --norc --noprofile` of their own, so that their behaviour (echo's options, printf's formats,
// pwd's logical path, test's operators) is bash's own, not the program's of the same name.
const RUN_BY_BASH = new Set([
  'echo',
  'printf',
  'test',
  '[',
  'true',
  'false',
  ':',
  'pwd',
  'kill',
  'cd',
  'export',
  'exit',
]);

// Builtins that change or read the shell's own state, or its jobs: no separate process can do what
// they do in bash. Why, in words, for the refusal.
const REFUSED = new Map<string, string>([
  ['source', 'runs a file in the shell itself'],
  ['.', 'runs a file in the shell itself'],
  ['eval', 'runs text as shell code'],
  ['set', "changes the shell's options"],
  ['shopt', "changes the shell's options"],
  ['alias', 'defines an alias for later lines'],
  ['unalias', 'changes aliases'],
  ['exec', 'replaces the shell'],
  ['return', 'returns from a function or script'],
  ['unset', "changes the shell's variables"],
  ['local', "changes the shell's variables"],
  ['declare', "changes the shell's variables"],
  ['typeset', "changes the shell's variables"],
  ['readonly', "changes the shell's variables"],
  ['read', "reads into the shell's variables"],
  ['mapfile', "reads into the shell's variables"],
  ['readarray', "reads into the shell's variables"],
  ['let', 'is arithmetic'],
  ['shift', "changes the shell's arguments"],
  ['getopts', "changes the shell's variables"],
  ['trap', "changes the shell's signal handling"],
  ['ulimit', "changes the shell's limits"],
  ['umask', "changes the shell's file mode mask"],
  ['hash', "reads the shell's command table"],
  ['type', "reads the shell's command table"],
  ['command', "reads the shell's command table"],
  ['builtin', 'runs a builtin by name'],
  ['enable', 'changes the builtins'],
  ['wait', "waits for the shell's jobs"],
  ['jobs', "lists the shell's jobs"],
  ['fg', "resumes the shell's jobs"],
  ['bg', "resumes the shell's jobs"],
  ['disown', "changes the shell's jobs"],
  ['suspend', 'stops the shell'],
  ['pushd', "changes the shell's directory stack"],
  ['popd', "changes the shell's directory stack"],
  ['dirs', "reads the shell's directory stack"],
  ['history', "reads the shell's history"],
  ['fc', "reads the shell's history"],
  ['times', "reads the shell's own times"],
  ['caller', 'reads the call stack'],
  ['break', 'ends a loop'],
  ['continue', 'continues a loop'],
  ['logout', 'ends a login shell'],
  ['bind', 'changes the line editor'],
  ['complete', 'changes completion'],
  ['compgen', 'reads completion'],
  ['compopt', 'changes completion'],
  ['help', "prints bash's help"],
]);

export type BuiltinKind = 'bash' | 'cd' | 'export' | 'exit' | null;

// How a command named `name` runs: null for a program; 'cd' and 'export' change the state when they
// are a step of their own; 'bash' for the other builtins run by bash. Throws for refused builtins.
export function builtinKind(name: string, command: SimpleCommand, alone: boolean, col: number): BuiltinKind {
  const why = REFUSED.get(name);
  if (why !== undefined) {
    refuseConstruct(
      'syntax.builtin',
      `builtin ${name}`,
      col,
      `${why}, which no separate process can do as bash does`,
    );
  }
  if (!RUN_BY_BASH.has(name)) return null;
  if (name === 'printf' && alone && command.words[1]?.literal?.startsWith('-v')) {
    refuseConstruct('syntax.builtin', 'printf -v', col, 'assigns a shell variable');
  }
  if (name === 'export' && (command.words.length === 1 || command.words[1]?.literal?.startsWith('-'))) {
    refuseConstruct(
      'syntax.builtin',
      command.words.length === 1 ? 'export' : `export ${command.words[1]!.raw}`,
      col,
      'lists or changes the export attribute of variables',
    );
  }
  if (name === 'kill' && command.words.some((w) => w.literal?.startsWith('%'))) {
    refuseConstruct('syntax.builtin', 'kill %job', col, "names one of the shell's jobs");
  }
  if (name === 'kill' && signalsOwnGroup(command.words)) {
    refuseConstruct(
      'syntax.builtin',
      'kill 0',
      col,
      "signals the shell's own process group: under bash every process of the text, under safe-run the stage's alone",
    );
  }
  // bash exports for `$E A=1` too; safe-run changes its state only for an export written as such,
  // whose words it checked before the run.
  if (alone && name === 'export' && command.words[0]?.literal !== 'export') {
    refuseConstruct(
      'syntax.builtin',
      'export',
      col,
      'comes from an expansion: safe-run changes its state only for an export written as such',
    );
  }
  if (alone && (name === 'cd' || name === 'export' || name === 'exit')) return name;
  return 'bash';
}

// `exit` with no argument ends with the status of the step before it ($?), which the builtin's own
// bash has to be given.
export function exitScript(line: number, status: number): string {
  const gap = line <= 1 ? '; ' : '\n'.repeat(line - 1);
  return `(exit ${status})${gap}"$@"`;
}

// Script run by bash for a builtin stage: the builtin with the stage's words, nothing else. The
// leading newlines put it on the text's own line, so its messages say the line bash would say.
export function builtinScript(line: number): string {
  return `${'\n'.repeat(Math.max(0, line - 1))}"$@"`;
}

// `cd` as a step: bash changes directory (its messages, CDPATH, `cd -`, logical paths are its own),
// then reports $PWD and $OLDPWD to safe-run through the file named by its first argument.
export function cdScript(line: number): string {
  const gap = line <= 1 ? '; ' : '\n'.repeat(line - 1);
  return `__sr_f=$1; shift${gap}cd "$@" || exit\nprintf '%s\\0%s\\0' "$PWD" "$OLDPWD" > "$__sr_f"`;
}

// Whether `kill`'s pid arguments hold a 0 (the caller's own process group). Options come first:
// -s SIG and -n NUM take a value, any other -WORD is the signal, -l and -L list signals, -- ends them.
// A group named by its number (-N) is the same group under bash and safe-run.
function signalsOwnGroup(words: readonly Word[]): boolean {
  const first = words[1]?.literal ?? null;
  if (first === '-l' || first === '-L') return false;
  let at = first === '-s' || first === '-n' ? 3 : first?.startsWith('-') && first !== '--' ? 2 : 1;
  if (words[at]?.literal === '--') at += 1;
  return words.slice(at).some((word) => word.literal === '0');
}
