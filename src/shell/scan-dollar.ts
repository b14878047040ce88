import type { Scanned } from '../model/shell-syntax.js';
import { matchHeredocSubstitution } from './heredoc-substitution.js';
import { refuseConstruct } from './refuse.js';
import type { SourceText } from './source-text.js';

// Variables whose value in safe-run's expander would differ from the one the reference bash gives
// (they name a process, a time, a line or a random number), or whose expansion is not a plain value.
const DYNAMIC = new Set([
  '_',
  'RANDOM',
  'SRANDOM',
  'LINENO',
  'SECONDS',
  'EPOCHSECONDS',
  'EPOCHREALTIME',
  'BASHPID',
  'PPID',
  'BASH_COMMAND',
  'BASH_SUBSHELL',
  'HISTCMD',
  'PIPESTATUS',
  'BASH_LINENO',
  'BASH_SOURCE',
  'FUNCNAME',
  'BASH_ARGV',
  'BASH_ARGC',
  'BASH_REMATCH',
  'COMP_WORDS',
  'DIRSTACK',
  // The helper bash that expands the words is not the bash that would run the text: its text, and
  // options and shopts that differ (pipefail), would show.
  'BASH_EXECUTION_STRING',
  'SHELLOPTS',
  'BASHOPTS',
  'BASH_ARGV0',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function checkName(name: string, col: number, raw: string): void {
  if (name === '$' || name === '!') {
    refuseConstruct(
      'syntax.dynamic-parameter',
      raw,
      col,
      'names a process id that differs from the one bash would give',
    );
  }
  if (DYNAMIC.has(name)) {
    refuseConstruct(
      'syntax.dynamic-parameter',
      raw,
      col,
      `expands to a value (${name}) that safe-run cannot give as bash would`,
    );
  }
}

// Reads an expansion that starts with `$` at index i; returns the index after it. Only expansions
// that cannot execute anything are accepted: the expander hands them to bash.
export function scanDollar(source: SourceText, i: number, quoted: boolean, out: Scanned): number {
  const { chars } = source;
  const next = chars[i + 1];
  const col = i + 1;
  if (next === '(') {
    if (chars[i + 2] === '(') refuseConstruct('syntax.arithmetic', '$((', col, 'is arithmetic expansion');
    const found = matchHeredocSubstitution(source, i);
    if (!found) {
      refuseConstruct(
        'syntax.command-substitution',
        '$(',
        col,
        "is a command substitution (only $(cat <<'EOF' ... EOF) is interpreted)",
      );
    }
    const name = `__sr_h${out.substitutions.length}`;
    out.substitutions.push(found.value);
    out.parts.push({ kind: 'heredoc-substitution', value: found.value, col });
    out.script += `\${${name}}`;
    out.value += found.value;
    // Unquoted, the result is split and globbed: bash decides.
    if (!quoted) out.expands = true;
    return found.end;
  }
  if (next === '[') refuseConstruct('syntax.arithmetic', '$[', col, 'is arithmetic expansion');
  if (next === '{') return scanBraced(source, i, quoted, out);
  if (next === "'" && !quoted) {
    let j = i + 2;
    while (chars[j] !== undefined && chars[j] !== "'") j += chars[j] === '\\' ? 2 : 1;
    if (chars[j] === undefined) {
      refuseConstruct('syntax.unterminated', "$'", col, 'is never closed');
    }
    const raw = source.slice(i, j + 1);
    out.parts.push({ kind: 'ansi-c', raw, col });
    return take(out, raw, j + 1);
  }
  if (next === '"' && !quoted) {
    refuseConstruct('syntax.locale-string', '$"', col, 'is a translated string');
  }
  const rest = source.slice(i + 1, i + 200);
  const name = NAME.exec(rest)?.[0] ?? (next !== undefined && /[0-9?#@*\-$!]/.test(next) ? next : null);
  if (name === null) {
    // A lone `$` is itself.
    out.script += '\\$';
    out.value += '$';
    out.parts.push({ kind: 'literal', text: '$', col });
    return i + 1;
  }
  const raw = `$${name}`;
  checkName(name, col, raw);
  out.parts.push({ kind: 'parameter', raw, col });
  return take(out, raw, i + 1 + name.length);
}

function take(out: Scanned, raw: string, end: number): number {
  out.script += raw;
  out.expands = true;
  return end;
}

const OPERATORS = [':-', ':+', '##', '%%', '//', '/#', '/%', '^^', ',,', '-', '+', '#', '%', '/', '^', ','];

// ${NAME}, ${#NAME} and ${NAME OP word} for the operators that only compute a value.
function scanBraced(source: SourceText, i: number, quoted: boolean, out: Scanned): number {
  const { chars } = source;
  const col = i + 1;
  let j = i + 2;
  const bad = (what: string, why: string): never => refuseConstruct('syntax.parameter', what, col, why);
  if (chars[j] === '!') bad('${!', 'is indirect expansion');
  const length = chars[j] === '#' && chars[j + 1] !== '}';
  if (length) j += 1;
  const rest = source.slice(j, j + 200);
  const name = NAME.exec(rest)?.[0] ?? (/^[0-9?#@*\-$!]/.test(rest) ? rest[0]! : null);
  if (name === null) bad(source.slice(i, j + 1), 'is not a parameter expansion safe-run can check');
  checkName(name!, col, `\${${name}}`);
  j += name!.length;
  if (chars[j] === '[') bad(`\${${name}[`, 'indexes an array (the index is arithmetic)');
  if (length && chars[j] !== '}') bad(source.slice(i, j + 1), 'is not a plain length');
  if (chars[j] !== '}') {
    const op = OPERATORS.find((o) => source.startsWith(o, j));
    if (op === undefined) {
      const shown = source.slice(i, j + 2);
      const assigns = /^:?[=?]/.test(source.slice(j, j + 2));
      const why = assigns
        ? 'assigns a variable or stops the shell'
        : chars[j] === ':'
          ? 'takes a substring (its offsets are arithmetic)'
          : 'is not an operator safe-run interprets';
      bad(shown, why);
    }
    j = scanOperand(source, j + op!.length, quoted, out, col);
  }
  if (chars[j] !== '}') {
    refuseConstruct('syntax.unterminated', '${', col, 'is never closed');
  }
  const raw = source.slice(i, j + 1);
  out.parts.push({ kind: 'parameter', raw, col });
  out.expands = true;
  out.script += raw;
  return j + 1;
}

// The word inside ${NAME OP word}: nested quotes and expansions are checked like any others.
function scanOperand(source: SourceText, j: number, quoted: boolean, out: Scanned, col: number): number {
  const { chars } = source;
  const scratch: Scanned = { parts: [], script: '', value: '', expands: false, substitutions: [] };
  for (;;) {
    const c = chars[j];
    if (c === undefined || c === '}') return j;
    if (c === '\\') j += 2;
    else if (c === "'" && !quoted) {
      const close = chars.indexOf("'", j + 1);
      if (close < 0) refuseConstruct('syntax.unterminated', "'", j + 1, 'is never closed');
      j = close + 1;
    } else if (c === "'" || c === '{' || c === '`' || (c === '"' && quoted)) {
      refuseConstruct(
        'syntax.parameter',
        `${c} inside \${...}`,
        j + 1,
        `(in the expansion at column ${col}) is read by bash in ways safe-run does not check`,
      );
    } else if (c === '"') {
      j = skipDoubleQuoted(source, j, out);
    } else if (c === '$') {
      if (chars[j + 1] === '(')
        refuseConstruct('syntax.command-substitution', '$(', j + 1, 'is a command substitution');
      j = scanDollar(source, j, quoted, scratch);
    } else if ((c === '<' || c === '>') && chars[j + 1] === '(') {
      // Even inside double quotes: bash expands a pattern operand (#, %, /, ^, ,) as unquoted text.
      refuseConstruct('syntax.process-substitution', `${c}(`, j + 1, 'is a process substitution');
    } else j += 1;
  }
}

function skipDoubleQuoted(source: SourceText, open: number, out: Scanned): number {
  const { chars } = source;
  const scratch: Scanned = {
    parts: [],
    script: '',
    value: '',
    expands: false,
    substitutions: out.substitutions,
  };
  let j = open + 1;
  for (;;) {
    const c = chars[j];
    if (c === undefined) refuseConstruct('syntax.unterminated', '"', open + 1, 'is never closed');
    if (c === '"') return j + 1;
    if (c === '\\') j += 2;
    else if (c === '`')
      refuseConstruct('syntax.command-substitution', 'command substitution `...`', j + 1, 'runs a command');
    else if (c === '$') {
      if (chars[j + 1] === '(')
        refuseConstruct('syntax.command-substitution', '$(', j + 1, 'is a command substitution');
      j = scanDollar(source, j, true, scratch);
    } else j += 1;
  }
}
