import { RequestError } from '../errors.js';

// One stage of `safe-run -c 'A | B'`: the words bash would pass to the program, and the leading
// NAME=value words bash would put in that program's environment.
export interface InlineStage {
  argv: string[];
  env: Record<string, string>;
}

const OR_BASH = "or run: safe-run -- bash -c '...'";

// Longest first, so that "&&" is named as "&&" and not as "&".
const OPERATORS: ReadonlyArray<readonly [string, string]> = [
  [';;&', 'a case terminator'],
  [';;', 'a case terminator'],
  [';&', 'a case terminator'],
  [';', 'a command separator'],
  ['&&', 'a command list'],
  ['&>>', 'a redirection'],
  ['&>', 'a redirection'],
  ['&', 'a background job'],
  ['||', 'a command list'],
  ['|&', 'a pipe of stdout and stderr'],
  ['<<<', 'a redirection'],
  ['<<-', 'a redirection'],
  ['<<', 'a redirection'],
  ['<&', 'a redirection'],
  ['<>', 'a redirection'],
  ['<(', 'a process substitution'],
  ['<', 'a redirection'],
  ['>>', 'a redirection'],
  ['>&', 'a redirection'],
  ['>|', 'a redirection'],
  ['>(', 'a process substitution'],
  ['>', 'a redirection'],
  ['(', 'a subshell'],
  [')', 'a subshell'],
];

const RESERVED_WORDS = new Set(
  'if then elif else fi case esac for select while until do done function time coproc { } [[ ]] !'.split(' '),
);

// Names bash does not pass through as written when they prefix a command (checked against bash 5.2).
const READ_ONLY = 'is read-only in bash, so bash would refuse to run the command';
const ARRAY = 'is a bash array, so bash would not pass it to the command';
const SPECIAL_VARIABLES = new Map<string, string>([
  ['BASHOPTS', READ_ONLY],
  ['BASH_VERSINFO', READ_ONLY],
  ['EUID', READ_ONLY],
  ['PPID', READ_ONLY],
  ['SHELLOPTS', READ_ONLY],
  ['UID', READ_ONLY],
  ['BASH_ARGC', ARRAY],
  ['BASH_ARGV', ARRAY],
  ['BASH_LINENO', ARRAY],
  ['BASH_SOURCE', ARRAY],
  ['FUNCNAME', ARRAY],
  ['GROUPS', ARRAY],
  ['_', "is set by bash to the command's path"],
]);

// A character of a word after quote removal. Quote characters and escaping backslashes are kept as
// "mark" units because bash decides assignments, reserved words and braces on the text as written.
type UnitKind = 'plain' | 'quoted' | 'mark';
interface Unit {
  ch: string;
  kind: UnitKind;
}

interface Word {
  col: number;
  raw: string;
  units: Unit[];
  // Index in units of the "=" of a NAME=value (or NAME+=value) word, -1 when the word is not one.
  assignAt: number;
  append: boolean;
}

// An unquoted "{" that may start a brace expansion. As in bash, a "}" at the brace's own depth only
// closes it once a "," or ".." has been seen at that depth; an earlier "}" is plain text.
interface OpenBrace {
  col: number;
  depth: number;
  separated: boolean;
}

interface StageBuilder {
  argv: string[];
  env: Record<string, string>;
  firstCol: number;
}

function refuse(code: string, message: string): never {
  throw new RequestError(code, `-c: ${message}`);
}

// Shows user text inside a one-line message.
function show(text: string): string {
  const chars = Array.from(text);
  const short = chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text;
  const escaped = short.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

function unquoted(
  code: string,
  ch: string,
  col: number,
  meaning: string,
  quoted = `"${ch}"`,
  purpose = 'to pass it as text',
): never {
  return refuse(
    code,
    `unquoted "${ch}" at column ${col} ${meaning}; quote it (${quoted}) ${purpose}, ${OR_BASH}`,
  );
}

function refuseOperator(chars: string[], i: number): never {
  const [op, what] = OPERATORS.find(([op]) => chars.slice(i, i + op.length).join('') === op)!;
  return unquoted('syntax.operator', op, i + 1, `is shell syntax (${what}) that safe-run does not interpret`);
}

function refuseReserved(word: string, col: number, meaning: string, purpose: string): never {
  return unquoted(
    'syntax.reserved',
    word,
    col,
    `is ${meaning} that safe-run does not interpret`,
    `"${word}"`,
    purpose,
  );
}

function isWordEnd(ch: string | undefined): boolean {
  return ch === undefined || ' \t\n|&;<>()'.includes(ch);
}

class WordReader {
  private readonly word: Word;
  private readonly braces: OpenBrace[] = [];
  private nameSoFar = true;
  private i: number;

  constructor(
    private readonly chars: string[],
    private readonly start: number,
    private readonly atCommand: boolean,
  ) {
    this.i = start;
    this.word = { col: start + 1, raw: '', units: [], assignAt: -1, append: false };
  }

  read(): { word: Word; end: number } {
    const { chars, start } = this;
    for (let c = chars[this.i]; c !== undefined && c !== ' ' && c !== '\t' && c !== '|'; c = chars[this.i]) {
      if (c === "'") this.readSingleQuoted();
      else if (c === '"') this.readDoubleQuoted();
      else if (c === '\\') this.readEscape();
      else this.readPlain(c);
    }
    this.word.raw = chars.slice(start, this.i).join('');
    return { word: this.word, end: this.i };
  }

  private add(ch: string, kind: UnitKind): void {
    const { word } = this;
    if (word.assignAt < 0 && this.nameSoFar) {
      const first = word.units.length === 0;
      const plain = kind === 'plain';
      if (plain && (first ? /[A-Za-z_]/ : /[A-Za-z0-9_]/).test(ch)) {
        // still a name
      } else if (plain && !first && ch === '=') {
        word.assignAt = word.units.length;
      } else if (plain && !first && ch === '+' && this.chars[this.i + 1] === '=') {
        word.append = true;
      } else {
        this.nameSoFar = false;
      }
    }
    word.units.push({ ch, kind });
  }

  private readSingleQuoted(): void {
    const close = this.chars.indexOf("'", this.i + 1);
    if (close < 0) {
      refuse(
        'syntax.unterminated',
        `the single quote at column ${this.i + 1} is never closed; add the closing ' or, to pass a quote as text, write \\' or "'"`,
      );
    }
    this.add("'", 'mark');
    for (const ch of this.chars.slice(this.i + 1, close)) this.add(ch, 'quoted');
    this.add("'", 'mark');
    this.i = close + 1;
  }

  private readDoubleQuoted(): void {
    const open = this.i;
    this.add('"', 'mark');
    for (let j = open + 1; ; j += 1) {
      const c = this.chars[j];
      if (c === undefined) {
        refuse(
          'syntax.unterminated',
          `the double quote at column ${open + 1} is never closed; add the closing " or, to pass a quote as text, write \\" or '"'`,
        );
      }
      if (c === '"') {
        this.add('"', 'mark');
        this.i = j + 1;
        return;
      }
      if (c === '$' || c === '`') {
        const name = c === '$' ? 'an expansion' : 'a command substitution';
        refuse(
          'syntax.expansion',
          `"${c}" inside double quotes at column ${j + 1} starts ${name} in bash, which safe-run does not perform; escape it (\\${c}) or use single quotes to pass it as text, ${OR_BASH}`,
        );
      }
      const next = this.chars[j + 1];
      if (c === '\\' && next === '\n') this.refuseContinuation(j);
      if (c === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        this.add('\\', 'mark');
        this.add(next, 'quoted');
        j += 1;
      } else {
        this.add(c, 'quoted');
      }
    }
  }

  private readEscape(): void {
    const next = this.chars[this.i + 1];
    if (next === '\n') this.refuseContinuation(this.i);
    if (next === undefined) {
      // bash keeps a backslash that ends the text as a literal backslash.
      this.add('\\', 'quoted');
      this.i += 1;
      return;
    }
    this.add('\\', 'mark');
    this.add(next, 'quoted');
    this.i += 2;
  }

  private refuseContinuation(at: number): never {
    return refuse(
      'syntax.newline',
      `backslash-newline at column ${at + 1} is a line continuation in bash, which safe-run does not interpret; join the lines, ${OR_BASH}`,
    );
  }

  private readPlain(c: string): void {
    const { chars, i, word } = this;
    const col = i + 1;
    const last = word.units.at(-1);
    const atStart = last === undefined;
    const lastPlain = last?.kind === 'plain' ? last.ch : undefined;
    if (c === '\n') {
      refuse(
        'syntax.newline',
        `unquoted newline at column ${col} ends a command in bash, which safe-run does not interpret; put "|" between stages, quote the newline to pass it as text, ${OR_BASH}`,
      );
    }
    if (';&<>()'.includes(c)) refuseOperator(chars, i);
    if (c === '$')
      unquoted(
        'syntax.expansion',
        c,
        col,
        'starts an expansion in bash, which safe-run does not perform',
        "'$'",
      );
    if (c === '`') {
      unquoted(
        'syntax.expansion',
        c,
        col,
        'starts a command substitution in bash, which safe-run does not perform',
        "'`'",
      );
    }
    if (c === '[' && atStart && this.atCommand && chars[i + 1] === '[' && isWordEnd(chars[i + 2])) {
      refuseReserved('[[', col, 'a bash reserved word', 'to run a program by that name');
    }
    if (c === '*' || c === '?' || c === '[') {
      unquoted('syntax.glob', c, col, 'is a filename pattern in bash, which safe-run does not expand');
    }
    const afterAssign = word.assignAt >= 0 && (word.units.length - 1 === word.assignAt || lastPlain === ':');
    if (c === '~' && (atStart || afterAssign)) {
      unquoted(
        'syntax.tilde',
        c,
        col,
        'is a home-directory expansion in bash, which safe-run does not perform',
      );
    }
    if (c === '#' && atStart)
      unquoted('syntax.comment', c, col, 'starts a comment in bash, which safe-run does not strip');
    this.trackBraces(c, col, lastPlain);
    this.add(c, 'plain');
    this.i += 1;
  }

  private trackBraces(c: string, col: number, lastPlain: string | undefined): void {
    const { chars, i } = this;
    for (const open of this.braces) {
      if (c === '{') open.depth += 1;
      else if (c === '}' && open.depth > 0) open.depth -= 1;
      else if (c === '}' && open.separated) {
        refuse(
          'syntax.brace',
          `brace expansion ${show(chars.slice(open.col - 1, col).join(''))} at column ${open.col} makes several words in bash, which safe-run does not do; quote the braces to pass them as text, ${OR_BASH}`,
        );
      } else if (open.depth === 0 && (c === ',' || (c === '.' && lastPlain === '.'))) open.separated = true;
    }
    // bash skips a "{" that starts the word or follows a blank when a "}" comes right after it.
    const skipped = (i === this.start || ' \t\n'.includes(chars[i - 1]!)) && chars[i + 1] === '}';
    if (c === '{' && !skipped) this.braces.push({ col, depth: 0, separated: false });
  }
}

function textOf(units: Unit[]): string {
  return units
    .filter((unit) => unit.kind !== 'mark')
    .map((unit) => unit.ch)
    .join('');
}

function addWord(stage: StageBuilder, word: Word): void {
  const { units, col, assignAt } = word;
  const value = textOf(units);
  const plain = units.every((unit) => unit.kind === 'plain') ? value : undefined;
  if (plain === '!')
    refuseReserved('!', col, 'a bash reserved word (pipeline negation)', 'to pass it as text');
  if (stage.argv.length > 0) {
    stage.argv.push(value);
    return;
  }
  if (stage.firstCol === 0) stage.firstCol = col;
  if (assignAt >= 0) {
    const name = textOf(units.slice(0, word.append ? assignAt - 1 : assignAt));
    if (word.append) {
      refuse(
        'syntax.assignment',
        `${show(word.raw)} at column ${col} appends to a shell variable in bash, which safe-run does not do; write ${name}=value, ${OR_BASH}`,
      );
    }
    const special = SPECIAL_VARIABLES.get(name);
    if (special !== undefined) {
      refuse(
        'syntax.assignment',
        `${show(word.raw)} at column ${col} assigns ${name}, which ${special}; drop it, or set it through env: env ${name}=... command`,
      );
    }
    stage.env[name] = textOf(units.slice(assignAt + 1));
    return;
  }
  if (plain !== undefined && RESERVED_WORDS.has(plain)) {
    refuseReserved(plain, col, 'a bash reserved word', 'to run a program by that name');
  }
  if (value.startsWith('%')) {
    refuse(
      'syntax.job',
      `command ${show(value)} at column ${col} starts with "%", which bash reads as a job to resume (fg), not a program; name the program by a path, as in ${show(`./${value}`)}`,
    );
  }
  stage.argv.push(value);
}

// Splits `A ARGS | B ARGS` into stages exactly as bash would split it into words, and refuses every
// construct whose meaning in bash differs from a plain word: nothing is guessed.
export function parseInline(text: string): InlineStage[] {
  const chars = Array.from(text);
  const nul = chars.indexOf('\0');
  if (nul >= 0)
    refuse('syntax.nul', `NUL character at column ${nul + 1} cannot be passed to a program; remove it`);
  const stages: InlineStage[] = [];
  const newStage = (): StageBuilder => ({ argv: [], env: Object.create(null), firstCol: 0 });
  let stage = newStage();
  let pipeCol = 0;
  for (let i = 0; ; ) {
    const c = chars[i];
    if (c === ' ' || c === '\t') {
      i += 1;
      continue;
    }
    if (c !== undefined && c !== '|') {
      const { word, end } = new WordReader(chars, i, stage.argv.length === 0).read();
      addWord(stage, word);
      i = end;
      continue;
    }
    if (c === '|' && (chars[i + 1] === '|' || chars[i + 1] === '&')) refuseOperator(chars, i);
    if (c === undefined && stages.length === 0 && stage.firstCol === 0) {
      refuse(
        'syntax.empty',
        "the pipeline is empty; give at least one command, as in: -c 'sort data.txt | uniq -c'",
      );
    }
    if (stage.firstCol === 0) {
      const [at, side] = c === '|' ? [i + 1, 'before'] : [pipeCol, 'after'];
      refuse(
        'syntax.empty-stage',
        `"|" at column ${at} has no command ${side} it; remove it, or quote it ("|") to pass it as text`,
      );
    }
    if (stage.argv.length === 0) {
      refuse(
        'syntax.no-command',
        `stage ${stages.length + 1} at column ${stage.firstCol} only assigns variables and has no command; put the command after the assignments (NAME=value command args)`,
      );
    }
    stages.push({ argv: stage.argv, env: stage.env });
    if (c === undefined) return stages;
    stage = newStage();
    pipeCol = i + 1;
    i += 1;
  }
}
