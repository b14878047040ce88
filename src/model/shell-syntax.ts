// The typed syntax tree of the part of bash that safe-run interprets itself. Every node keeps the
// 1-based column (in characters) and line where it was written, so that a refusal or a report can
// point at it. Produced by parseShell (src/shell/), consumed by the expander and the interpreter.

export interface Position {
  col: number;
  line: number;
}

// A piece of a word as written.
export type WordPart =
  | { kind: 'literal'; text: string; col: number }
  | { kind: 'single-quoted'; text: string; col: number }
  | { kind: 'double-quoted'; parts: WordPart[]; col: number }
  // $NAME, ${NAME...}, $?: the text as written.
  | { kind: 'parameter'; raw: string; col: number }
  // An unquoted ~ at a place where bash expands it.
  | { kind: 'tilde'; col: number }
  // An unquoted * ? [ or a { that may start a brace expansion.
  | { kind: 'pattern'; text: string; col: number }
  // $'...': bash decodes the escapes.
  | { kind: 'ansi-c'; raw: string; col: number }
  // $(cat <<'EOF' ... EOF): its value, known without running anything.
  | { kind: 'heredoc-substitution'; value: string; col: number };

export interface Word extends Position {
  // The text exactly as written.
  raw: string;
  parts: WordPart[];
  // The word's value when nothing in it expands (quote removal only); null when bash must expand it.
  literal: string | null;
  // The word as bash source for the expander, with each heredoc substitution replaced by a variable
  // reference (${__sr_h0}...) whose value is in `substitutions`.
  script: string;
  substitutions: string[];
}

export interface Assignment extends Position {
  name: string;
  // The value part of the word (after `=`), as a word of its own.
  value: Word;
  raw: string;
}

export type RedirectOp = '<' | '>' | '>>' | '>|' | '&>' | '&>>' | 'dup' | '<<' | '<<-' | '<<<';

export interface Redirect extends Position {
  // As written, e.g. `2>&1`, `>> log.txt`.
  raw: string;
  op: RedirectOp;
  // The file descriptor redirected (0, 1 or 2); for &> and &>> both 1 and 2.
  fd: 0 | 1 | 2;
  // The file (for < > >> >| &> &>>), the word of a here-string (<<<), or null.
  target: Word | null;
  // For dup: the descriptor copied (2>&1: 1).
  dupFrom: 0 | 1 | 2 | null;
  // For heredocs: the body, byte for byte (after <<- tab stripping).
  body: string | null;
  // `>&WORD` whose word is not plain: bash decides after expansion whether it names a file (&>WORD),
  // a descriptor to copy (a number) or one to close (-).
  decidedByExpansion?: true;
}

export interface SimpleCommand extends Position {
  assignments: Assignment[];
  words: Word[];
  redirects: Redirect[];
  // The command as written (for reports).
  text: string;
}

export interface Pipeline extends Position {
  commands: SimpleCommand[];
  text: string;
  // Written after `!` (an odd number of them): its status is inverted, 0 for a failure, 1 for success.
  negated?: boolean;
}

// An item of a list: the pipeline and how it joins the previous one.
export interface ListItem {
  connector: '&&' | '||' | ';' | null;
  pipeline: Pipeline;
}

export interface Script {
  text: string;
  items: ListItem[];
}

// What one scan adds to a word: its parts, its bash source for the expander, and whether bash must
// expand it (then `value` is meaningless).
export interface Scanned {
  parts: WordPart[];
  script: string;
  value: string;
  expands: boolean;
  substitutions: string[];
}
