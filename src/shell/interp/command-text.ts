import { decodeAnsi } from '../expand/ansi.js';
import type {
  AndOr,
  Assign,
  Command,
  CondExpr,
  Pipeline,
  Redirect,
  SimpleCommand,
  Span,
  Stmt,
  Word,
  WordPart,
} from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import {
  after,
  joined,
  operandParts,
  type Printed,
  prefixed,
  quoted,
  singleQuoted,
  text,
} from './print-parts.js';

// bash's BASH_COMMAND: the command running now or last run outside a trap, as bash's printer gives it
// back: words single-spaced as written (a $( ) or <( ) printed back too, `$"..."` as "..."),
// redirections after the words in bash's own form (`> file`, `1>&2`, `0>&-`), `[[ ]]` single-spaced,
// `(( ))` as written, $'...' decoded and single-quoted. null: a form printed here differently from
// bash ($'\u...', a compound command inside a $( ), a line continuation, a here-document of a
// compound command): reading BASH_COMMAND then is refused.

function simpleText(src: Bytes, command: SimpleCommand): Printed {
  const items: Printed[] = command.assigns.map((assign) =>
    assign.array ? arrayText(src, assign) : spanText(src, assign, assign.value?.parts ?? []),
  );
  for (const [i, word] of command.words.entries()) {
    const decl = command.declArgs?.[i];
    items.push(decl?.array ? arrayText(src, decl) : spanText(src, word, word.parts));
  }
  for (const redirect of command.redirects) items.push(redirectText(src, redirect, true));
  const line = joined(items);
  const bodies = command.redirects.map((redirect) => (redirect.heredoc ? heredocBody(src, redirect) : ''));
  if (line === null || bodies.includes(null)) return null;
  return bodies.some(Boolean) ? `${line}\n${bodies.filter(Boolean).join('')}` : line;
}

// A here-document's body after the command's line, as read (`<<-`: without its leading tabs), then
// its delimiter.
function heredocBody(src: Bytes, redirect: Redirect): Printed {
  const { body, delimiter, quoted } = redirect.heredoc!;
  const only = body.parts.length === 1 ? body.parts[0]! : null;
  // (A body without expansions is one literal part, its leading tabs gone already.)
  if (body.parts.length === 0) return `${delimiter}\n`;
  if (only?.kind === 'sq' && only.start.offset === only.end.offset) return `${only.value}${delimiter}\n`;
  const written = text(src, body);
  if (quoted || redirect.op === '<<-' || /\\\n/.test(written)) return null;
  return `${written}${delimiter}\n`;
}

// NAME=( ... ) with its elements single-spaced.
function arrayText(src: Bytes, assign: Assign): Printed {
  const index = assign.index ? `[${text(src, assign.index)}]` : '';
  const elements = joined(assign.array!.map((element) => spanText(src, element, element.value.parts)));
  return prefixed(`${assign.name}${index}${assign.append ? '+=' : '='}(`, elements, ')');
}

// `[[ ... ]]` with its operands single-spaced.
function condText(src: Bytes, expr: CondExpr): Printed {
  const inner = condPart(src, expr);
  return inner === null ? null : `[[ ${inner} ]]`;
}

function condPart(src: Bytes, expr: CondExpr): Printed {
  switch (expr.kind) {
    case 'cond-not':
      return prefixed('! ', condPart(src, expr.expr));
    case 'cond-and':
    case 'cond-or':
      return joined([
        condPart(src, expr.left),
        expr.kind === 'cond-and' ? '&&' : '||',
        condPart(src, expr.right),
      ]);
    case 'cond-group':
      return joined(['(', condPart(src, expr.expr), ')']);
    case 'cond-unary':
      return joined([expr.op, wordText(src, expr.operand)]);
    case 'cond-binary':
      return joined([wordText(src, expr.left), expr.op, wordText(src, expr.right)]);
    default:
      return wordText(src, expr.word);
  }
}

// A command of a list inside ( ) or $( ): simple ones, ( ), { }, [[ ]] and (( )).
export function commandText(src: Bytes, command: Command): Printed {
  switch (command.kind) {
    case 'simple':
      return simpleText(src, command);
    case 'subshell':
      return withRedirects(src, prefixed('( ', listText(src, command.stmts, false)), ' )', command.redirects);
    case 'brace':
      return withRedirects(
        src,
        prefixed('{ ', listText(src, command.stmts, false)),
        '; }',
        command.redirects,
      );
    case 'arith':
      return withRedirects(
        src,
        text(src, { start: command.start, end: command.expr.end }),
        '))',
        command.redirects,
      );
    case 'cond':
      return withRedirects(src, condText(src, command.expr), '', command.redirects);
    default:
      return null;
  }
}

function withRedirects(src: Bytes, head: Printed, tail: string, redirects: readonly Redirect[]): Printed {
  if (head === null) return null;
  return joined([`${head}${tail}`, ...redirects.map((redirect) => redirectText(src, redirect))]);
}

// Commands one after another: `a; b`, `a & b`; in a $( ), a newline between them stays one (in a
// ( ) or { }, it is `; ` too).
function listText(src: Bytes, stmts: readonly Stmt[], inSubst: boolean): Printed {
  let out = '';
  let previous: Stmt | null = null;
  for (const stmt of stmts) {
    if (previous) {
      const between = text(src, { start: previous.end, end: stmt.start }).replace(/#[^\n]*/g, '');
      const newline = !previous.background && !/[;&]/.test(between) && between.includes('\n');
      out += previous.background ? ' ' : newline && inSubst ? '\n' : '; ';
    }
    const body = andOrText(src, stmt.body);
    if (body === null) return null;
    out += stmt.background ? `${body} &` : body;
    previous = stmt;
  }
  return out;
}

function andOrText(src: Bytes, list: AndOr): Printed {
  const items: Printed[] = [pipelineText(src, list.first)];
  for (const { op, pipeline } of list.rest) items.push(op, pipelineText(src, pipeline));
  return joined(items);
}

function pipelineText(src: Bytes, pipeline: Pipeline): Printed {
  if (pipeline.time || pipeline.pipeAll.some(Boolean)) return null;
  const commands = pipeline.commands.map((command) => commandText(src, command));
  if (commands.includes(null)) return null;
  return `${pipeline.bang ? '! ' : ''}${commands.join(' | ')}`;
}

const OUTPUT_OPS = new Set(['>', '>>', '>|', '>&']);

// bash's form of a redirection: `N> target` (N left out when it is the operator's own), a copy or a
// close as `N>&M`, `N>&-` (a close of either direction is written with >&).
function redirectText(src: Bytes, redirect: Redirect, heredocs = false): Printed {
  const { heredoc } = redirect;
  if (heredoc) {
    if (!heredocs) return null;
    const delimiter = heredoc.quoted ? singleQuoted(heredoc.delimiter) : heredoc.delimiter;
    return `${redirect.fd && redirect.fd !== 0 ? redirect.fd : ''}${redirect.op}${delimiter}`;
  }
  const target = wordText(src, redirect.target);
  if (target === null) return null;
  const own = OUTPUT_OPS.has(redirect.op) ? 1 : 0;
  const fd = redirect.fd ?? own;
  const named = redirect.fdVar === null ? null : `{${redirect.fdVar}}`;
  if (redirect.op === '&>' || redirect.op === '&>>') return `${redirect.op} ${target}`;
  if (redirect.op === '<&' || redirect.op === '>&') {
    const number = /^\d+-?$/.test(target);
    if (target === '-') return `${named ?? fd}>&-`;
    if (number || fd !== own || named) return `${named ?? fd}${redirect.op}${target}`;
    return `${redirect.op}${target}`;
  }
  return `${named ?? (fd === own ? '' : fd)}${redirect.op} ${target}`;
}

function wordText(src: Bytes, word: Word): Printed {
  return spanText(src, word, word.parts);
}

// A span's text with its parts that bash prints otherwise put in.
function spanText(src: Bytes, span: Span, parts: readonly WordPart[]): Printed {
  let out = '';
  let at = span.start.offset;
  for (const part of parts) {
    const piece = partText(src, part);
    if (piece === null) return null;
    if (piece === undefined) continue;
    out += src.slice(at, part.start.offset) + piece;
    at = part.end.offset;
  }
  const rest = src.slice(at, span.end.offset);
  return /\\\n/.test(out + rest) ? null : out + rest;
}

// undefined: as written.
function partText(src: Bytes, part: WordPart): Printed | undefined {
  switch (part.kind) {
    case 'ansi':
      // bash decodes it as it reads it (\u by the locale: not printed here) and quotes it again.
      return /\\[uU]/.test(part.raw) ? null : singleQuoted(decodeAnsi(part.raw));
    case 'dq':
      return part.locale
        ? prefixed('"', spanText(src, { start: after(part.start, 2), end: part.end }, part.parts))
        : spanText(src, part, part.parts);
    case 'cmdsubst': {
      if (part.backquote) return undefined;
      const list = listText(src, part.stmts, true);
      return list === null ? null : `$(${list.startsWith('(') ? ' ' : ''}${list})`;
    }
    case 'procsubst':
      return prefixed(`${part.op}(`, listText(src, part.stmts, true), ')');
    case 'param':
    case 'arith-exp':
      // As written, its $( )s printed back ($'...' and $"..." in it: not done here).
      return quoted(part) ? null : spanText(src, part, operandParts(part));
    default:
      return undefined;
  }
}
