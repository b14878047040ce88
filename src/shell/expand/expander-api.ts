import type { Word, WordPart } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { ExpandEnv } from './env.js';
import type { Chunk, Field } from './fields.js';

// How a written piece of text reads (word.ts has the details).
export type LitStyle = 'word' | 'dq' | 'heredoc' | 'operand';

export interface PartContext {
  style: LitStyle;
  // Inside double quotes (or another context where expansions are neither split nor globbed).
  quoted: boolean;
  // Tilde expansion at the start (and, for assignments, after = and :).
  tilde: 'none' | 'start' | 'assignment';
  // One value is made (an assignment, a case word): $* and ${a[*]} are joined as in double quotes.
  single?: boolean;
  // A command's argument written NAME=value: ~ expands after the = and each : as in an assignment.
  assignmentLike?: boolean;
}

// What the parameter expansion needs of the expander (word.ts), without importing it.
export interface ExpanderApi {
  readonly env: ExpandEnv;
  build(parts: readonly WordPart[], context: PartContext): Promise<Field[]>;
  pattern(word: Word, style?: LitStyle): Promise<Chunk[]>;
  value(word: Word, options?: { assignment?: boolean; subscript?: boolean }): Promise<Bytes>;
  arith(word: Word): Promise<bigint>;
  // The same, as $((...)) and an offset expand it: an error of arithmetic's own discards the line.
  arithExpansion(word: Word): Promise<bigint>;
  evaluate(text: Bytes): bigint;
  // An indexed array's subscript: its arithmetic errors leave for bash's top level (TopLevelError).
  subscript(text: Bytes): number;
  ifs(): Bytes | null;
}
