// The leaves of bash's syntax tree (shell-tree.ts): places in the text, operators, extended globs, and
// parameter expansions over any word type.

export interface Pos {
  offset: number;
  line: number;
  col: number;
}

export interface Span {
  start: Pos;
  end: Pos;
}

export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export type ParamOp =
  | ':-'
  | '-'
  | ':='
  | '='
  | ':?'
  | '?'
  | ':+'
  | '+'
  | '#'
  | '##'
  | '%'
  | '%%'
  | '^'
  | '^^'
  | ','
  | ',,'
  | '~'
  | '~~';

export interface ExtGlob extends Span {
  kind: 'extglob';
  op: '?' | '*' | '+' | '@' | '!';
  // The pattern list between the parentheses, as written.
  pattern: string;
}

// ${...} and $name, over the tree's word type W (shell-tree.ts's ParamExp).
export interface ParamExpOf<W> extends Span {
  kind: 'param';
  // $x rather than ${x}.
  short: boolean;
  // A name, a positional number, or one of @ * # ? - $ ! 0.
  name: string;
  // ${name[index]}: the subscript as a word (@ and * are words too).
  index: W | null;
  // ${#name}
  length: boolean;
  // ${!name}: indirection; with prefix (${!pre*} / ${!pre@}) the names that start with it.
  indirect: boolean;
  prefixList: '*' | '@' | null;
  // ${!name[@]}: the keys of an array.
  keys: boolean;
  // One of the operators with its word, or a slice, a replacement, a transformation, or none.
  op: { kind: 'word'; op: ParamOp; word: W } | null;
  slice: { offset: W; length: W | null } | null;
  replace: { all: boolean; anchor: '#' | '%' | null; pattern: W; with: W | null } | null;
  transform: string | null;
  // The whole ${...} when it is not an expansion bash knows: "bad substitution" when expanded (with
  // `transform`, an unknown one: only when the parameter is set, and then as fatal as ${x:?}).
  bad: string | null;
}
