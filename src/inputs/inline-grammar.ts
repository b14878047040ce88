import { addWord, newStage } from './inline/add-word.js';
import { refuse, refuseOperator } from './inline/refusals.js';
import { WordReader } from './inline/word-reader.js';

// One stage of `safe-run -c 'A | B'`: the words bash would pass to the program, and the leading
// NAME=value words bash would put in that program's environment.
export interface InlineStage {
  argv: string[];
  env: Record<string, string>;
}

// Splits `A ARGS | B ARGS` into stages exactly as bash would split it into words, and refuses every
// construct whose meaning in bash differs from a plain word: nothing is guessed.
export function parseInline(text: string): InlineStage[] {
  const chars = Array.from(text);
  const nul = chars.indexOf('\0');
  if (nul >= 0)
    refuse('syntax.nul', `NUL character at column ${nul + 1} cannot be passed to a program; remove it`);
  const stages: InlineStage[] = [];
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
