import { BUILTIN_NAMES } from '../../model/bash-builtins.js';
import type { RequestErrorCode } from '../../types.js';
import { escapeText, Refusal, WAY_OUT } from '../refuse.js';
import type { Command, Pos, Script, Word, WordPart } from '../syntax/nodes.js';
import { place } from '../syntax/syntax-error.js';
import { walkStmts } from '../syntax/walk.js';
import { BUILTINS } from './builtins/registry.js';

// Variables whose value this interpreter cannot give as bash would.
const DYNAMIC_REFUSED = new Set([
  'BASHPID',
  'BASH_ARGV',
  'BASH_ARGC',
  'BASH_EXECUTION_STRING',
  'HISTCMD',
  'COMP_WORDS',
  'COMP_CWORD',
  'BASH_ARGV0',
  'BASHOPTS',
  'SHELLOPTS',
  'BASH_ALIASES',
  'BASH_CMDS',
]);

// Which constructs of a parsed text safe-run's interpreter runs: one pass over the tree, after parsing.
// A construct it does not run is refused before anything starts, with where it is and the way out.
export function checkSupported(script: Script, multiline: boolean): void {
  const refuse = (code: RequestErrorCode, construct: string, pos: Pos, why: string): never => {
    throw new Refusal(
      code,
      construct,
      pos.col,
      `${escapeText(construct)} at ${place(pos, multiline)} ${why}; ${WAY_OUT}`,
    );
  };
  const runnable = runnableSubstitutions(script);
  walkStmts(script.stmts, {
    command: (command) => checkCommand(command, refuse),
    part: (part) => {
      if (!runnable.has(part)) checkPart(part, refuse);
    },
  });
}

// The process substitutions the interpreter runs: a word of a simple command (`diff <(a) <(b)`) or
// a redirection's target (`done < <(cmd)`). Elsewhere (an assignment, `[[ ]]`, `case`, a `for`
// list, a declaration's argument) one is refused.
function runnableSubstitutions(script: Script): Set<WordPart> {
  const found = new Set<WordPart>();
  const add = (word: Word) => {
    for (const part of word.parts) if (part.kind === 'procsubst') found.add(part);
  };
  walkStmts(script.stmts, {
    command: (command) => {
      if (command.kind === 'simple' && !command.declArgs) for (const word of command.words) add(word);
    },
    redirect: (redirect) => {
      if (redirect.op !== '<<' && redirect.op !== '<<-') add(redirect.target);
    },
  });
  return found;
}

type Refuse = (code: RequestErrorCode, construct: string, pos: Pos, why: string) => never;

function checkCommand(command: Command, refuse: Refuse): void {
  if (command.kind === 'select')
    refuse(
      'syntax.select',
      'select loop',
      command.start,
      'reads a choice from a menu, which safe-run does not run',
    );
  if (command.kind === 'coproc')
    refuse('syntax.coproc', 'coproc', command.start, 'starts a coprocess, which safe-run does not run');
  if (command.kind !== 'simple') return;
  const first = command.words[0];
  const only = first?.parts.length === 1 ? first.parts[0]! : null;
  const name = only?.kind === 'lit' ? only.value : null;
  if (name === null) return;
  if (BUILTIN_NAMES.has(name) && !BUILTINS.has(name)) {
    refuse(
      'syntax.builtin',
      `builtin ${name}`,
      first!.start,
      "is a bash builtin that safe-run's interpreter does not run",
    );
  }
  if (name === 'trap') checkTrap(command.words, refuse);
  if ((name === 'set' || name === 'declare' || name === 'typeset') && command.words.length === 1)
    refuse(
      'syntax.builtin',
      name,
      first!.start,
      "with no arguments lists every variable of the shell, bash's own among them",
    );
}

// trap ACTION DEBUG: bash runs it before every command; safe-run's interpreter does not, so such a
// trap is refused rather than accepted and never run.
function checkTrap(words: readonly Word[], refuse: Refuse): void {
  const texts = words.map((word) =>
    word.parts.length === 1 && word.parts[0]!.kind === 'lit' ? word.parts[0]!.value : '',
  );
  if (texts[1] === '-p' || texts[1] === '-l') return;
  const specs = words.length === 2 ? [1] : texts.map((_, i) => i).slice(2);
  for (const i of specs) {
    const signal = texts[i]!.toUpperCase();
    if (signal !== 'DEBUG') continue;
    refuse(
      'syntax.trap',
      `trap ... ${texts[i]}`,
      words[i]!.start,
      `sets a ${signal} trap, which safe-run's interpreter does not run`,
    );
  }
}

function checkPart(part: WordPart, refuse: Refuse): void {
  if (part.kind === 'procsubst')
    refuse(
      'syntax.process-substitution',
      `${part.op}( ... )`,
      part.start,
      "is a process substitution where safe-run does not run one (it runs them in a command's words and a redirection's target)",
    );
  if (part.kind === 'extglob')
    refuse('syntax.extglob', `${part.op}(...)`, part.start, 'is an extended pattern');
  if (part.kind !== 'param') return;
  // bash runs <( and >( in an operand of ${...} as process substitutions; read as text here, they are
  // refused wherever they appear in one (quoted too: never a chance that one runs).
  const inOperand = operandsOf(part).find(hasProcessText);
  if (inOperand)
    refuse(
      'syntax.process-substitution',
      '<( ... )',
      inOperand.start,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'inside ${...} is a process substitution, which safe-run does not run yet',
    );
  if (part.transform === 'P' && part.bad === null) {
    refuse(
      'syntax.parameter',
      `\${...@${part.transform}}`,
      part.start,
      'is a transformation safe-run does not give as bash would',
    );
  }
  if (DYNAMIC_REFUSED.has(part.name))
    refuse(
      'syntax.dynamic-parameter',
      `$${part.name}`,
      part.start,
      `expands to a value (${part.name}) that safe-run cannot give as bash would`,
    );
}

function operandsOf(part: Extract<WordPart, { kind: 'param' }>): Word[] {
  const words = [part.index, part.op?.word, part.slice?.offset, part.slice?.length];
  words.push(part.replace?.pattern, part.replace?.with);
  return words.filter((word): word is Word => word !== null && word !== undefined);
}

function hasProcessText(word: { parts: readonly WordPart[] }): boolean {
  return word.parts.some((part) => {
    if (part.kind === 'lit' || part.kind === 'sq') return /[<>]\(/.test(part.value);
    if (part.kind === 'dq') return hasProcessText(part);
    if (part.kind === 'param') return operandsOf(part).some(hasProcessText);
    return false;
  });
}
