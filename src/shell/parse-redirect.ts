import type { Redirect, RedirectOp, Word } from '../model/shell-syntax.js';
import { heredocDelimiter } from './heredoc-substitution.js';
import { refuseConstruct, refuseSyntax } from './refuse.js';
import { isMeta, scanWord } from './scan-word.js';
import type { SourceText } from './source-text.js';

// A here-document whose body comes after the end of the current line.
export interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

const REDIRECT_AT = /^([0-9]*)(<<<|<<-|<<|<>|<&|>>|>\||>&|<|>|&>>|&>)/;

// True when a redirection starts at i (an optional fd number, then an operator).
export function isRedirectStart(source: SourceText, i: number): boolean {
  const head = source.slice(i, i + 12);
  const match = REDIRECT_AT.exec(head);
  return match !== null && !(match[1] !== '' && match[2]!.startsWith('&'));
}

// Blanks and line continuations: `cat < \⏎ | wc` has no file after `<`, as bash reads it.
function skipBlanks(source: SourceText, i: number): number {
  for (;;) {
    const c = source.chars[i];
    if (c === ' ' || c === '\t') i += 1;
    else if (c === '\\' && source.chars[i + 1] === '\n') i += 2;
    else return i;
  }
}

function fdOf(digits: string, fallback: 0 | 1, col: number, raw: string): 0 | 1 | 2 {
  const fd = digits === '' ? fallback : Number(digits);
  if (fd > 2) {
    refuseConstruct(
      'syntax.redirect-fd',
      raw,
      col,
      `uses file descriptor ${fd}; safe-run gives a stage only 0, 1 and 2`,
    );
  }
  return fd as 0 | 1 | 2;
}

// Reads one redirection at i. Heredocs are returned pending: their bodies follow the line.
export function parseRedirect(
  source: SourceText,
  i: number,
): { redirect: Redirect; end: number; heredoc: PendingHeredoc | null } {
  const match = REDIRECT_AT.exec(source.slice(i, i + 12))!;
  const digits = match[1]!;
  const written = match[2]!;
  const col = i + 1;
  const line = source.lineAt(i);
  let j = skipBlanks(source, i + match[0].length);
  const shown = () => source.slice(i, j).trim();
  refuseUnsupported(source, i, j, match);
  const { word, end } = scanWord(source, j);
  j = end;
  const raw = shown();
  if (written === '<<' || written === '<<-') {
    // bash removes the $ of $'...' and $"..." in a delimiter (<<$'EOF' ends at a line EOF), with the
    // escapes of each form: not read here, so not guessed.
    if (/\$['"]/.test(word.raw)) {
      refuseConstruct(
        'syntax.heredoc',
        `${written}${word.raw}`,
        col,
        "has a $'...' or $\"...\" delimiter; write it as <<'EOF'",
      );
    }
    const { delimiter, quoted } = heredocDelimiter(word.raw);
    const redirect: Redirect = {
      raw,
      col,
      line,
      op: written,
      fd: fdOf(digits, 0, col, raw),
      target: null,
      dupFrom: null,
      body: '',
    };
    return { redirect, end: j, heredoc: { redirect, delimiter, quoted, stripTabs: written === '<<-' } };
  }
  if (written === '<&' || written === '>&') {
    return { redirect: dupRedirect(written, digits, word, { raw, col, line }), end: j, heredoc: null };
  }
  const op = written as RedirectOp;
  const fallback = op === '<' || op === '<<<' ? 0 : 1;
  const fd = op === '&>' || op === '&>>' ? 1 : fdOf(digits, fallback, col, raw);
  return {
    redirect: { raw, col, line, op, fd, target: word, dupFrom: null, body: null },
    end: j,
    heredoc: null,
  };
}

// Forms bash reads that safe-run does not interpret, and an operator with nothing after it.
function refuseUnsupported(source: SourceText, i: number, j: number, match: RegExpExecArray): void {
  const digits = match[1]!;
  const written = match[2]!;
  const col = i + 1;
  if ((written === '<' || written === '>') && digits === '' && source.chars[i + 1] === '(') {
    refuseConstruct(
      'syntax.process-substitution',
      `${written}(`,
      col,
      'is a process substitution (it runs a command)',
    );
  }
  if (written === '<>') refuseConstruct('syntax.redirect', '<>', col, 'opens a file for reading and writing');
  if (isMeta(source.chars[j]) || source.chars[j] === '#') {
    refuseSyntax(
      'syntax.redirect',
      col,
      `redirection "${source.slice(i, i + match[0].length)}" at column ${col} has no file after it (a syntax error in bash)`,
    );
  }
}

// `N<&M`, `N>&M` and `>&file` (bash's older spelling of `&>file`).
function dupRedirect(
  written: '<&' | '>&',
  digits: string,
  word: Word,
  { raw, col, line }: { raw: string; col: number; line: number },
): Redirect {
  const fallback = written === '<&' ? 0 : 1;
  if (/^[0-9]+$/.test(word.raw)) {
    const from = fdOf(word.raw, 0, col, raw);
    const redirect: Redirect = {
      raw,
      col,
      line,
      op: 'dup',
      fd: fdOf(digits, fallback, col, raw),
      target: null,
      dupFrom: from,
      body: null,
    };
    return redirect;
  }
  if (word.raw === '-') refuseConstruct('syntax.redirect', raw, col, 'closes a file descriptor');
  if (written === '<&' || digits !== '') {
    refuseConstruct('syntax.redirect', raw, col, 'names a file descriptor that is not a plain number');
  }
  // `>&file` is bash's older spelling of `&>file`, decided after expansion: a word that expands to a
  // number or `-` duplicates or closes a descriptor instead (checked when the step is reached).
  const plain = word.parts.every((part) => part.kind === 'literal') && word.literal === word.raw;
  const redirect: Redirect = { raw, col, line, op: '&>', fd: 1, target: word, dupFrom: null, body: null };
  return plain ? redirect : { ...redirect, decidedByExpansion: true };
}
