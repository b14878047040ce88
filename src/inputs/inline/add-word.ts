import { RESERVED_WORDS } from '../../model/bash-reserved-words.js';
import { READ_ONLY_VARIABLES, SHELL_ARRAY_VARIABLES } from '../../model/bash-variables.js';
import { OR_BASH, refuse, refuseReserved, show } from './refusals.js';
import { textOf, type Word } from './word.js';

// Names bash does not pass through as written when they prefix a command (checked against bash 5.2).
const SPECIAL_VARIABLES = new Map<string, string>([
  ...READ_ONLY_VARIABLES.map(
    (name) => [name, 'is read-only in bash, so bash would refuse to run the command'] as const,
  ),
  ...SHELL_ARRAY_VARIABLES.map(
    (name) => [name, 'is a bash array, so bash would not pass it to the command'] as const,
  ),
  ['_', "is set by bash to the command's path"],
]);

interface StageBuilder {
  argv: string[];
  env: Record<string, string>;
  firstCol: number;
}

export function newStage(): StageBuilder {
  return { argv: [], env: Object.create(null), firstCol: 0 };
}

// Puts a word where bash would: a leading NAME=value into the environment, the rest into argv, after
// refusing reserved words, special variables and job specs.
export function addWord(stage: StageBuilder, word: Word): void {
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
