import path from 'node:path';
import type { ListItem, Redirect, Script, Word } from '../model/shell-syntax.js';
import { quoteForBash } from '../shell/bash-path.js';
import { parseShell } from '../shell/parse-shell.js';

// --atomic-redirects (docs/publishing-outputs.md): the one redirection of a -c text that can be
// staged like --output. It qualifies when all of these hold:
// - it is on the last command of the last step of the text (what the text's exit status is about);
// - it is `>` or `>|` of stdout (`> FILE`, `1> FILE`): `>>` appends to what is there, which a rename
//   cannot do; `&>` and `2>` are not the product;
// - it is the last redirection of that command that moves stdout (`> a > b` leaves a empty);
// - FILE is written literally (quotes are fine; no $VAR, ~, glob): it is known before anything runs;
// - FILE is absolute, or no earlier step is a `cd`: the directory FILE is relative to is known.
export interface FinalRedirect {
  // FILE as written (after quote removal), and resolved against the run's starting directory.
  written: string;
  file: string;
  redirect: Redirect;
}

export type FinalRedirectResult = { found: FinalRedirect } | { none: string };

function movesStdout(redirect: Redirect): boolean {
  return redirect.fd === 1 || redirect.op === '&>' || redirect.op === '&>>';
}

function changesDirectory(item: ListItem): boolean {
  const { commands } = item.pipeline;
  return commands.length === 1 && commands[0]!.words[0]?.literal === 'cd';
}

export function findFinalRedirect(script: Script, startDir: string): FinalRedirectResult {
  const last = script.items.at(-1);
  const command = last?.pipeline.commands.at(-1);
  const redirect = command?.redirects.filter(movesStdout).at(-1);
  if (!last || !command || !redirect) {
    return {
      none: 'the last command of the text does not end in > FILE (use --output FILE to stage its stdout)',
    };
  }
  const raw = JSON.stringify(redirect.raw);
  if (redirect.op !== '>' && redirect.op !== '>|') {
    const why =
      redirect.op === '>>' || redirect.op === '&>>'
        ? 'appends, which a rename cannot stage'
        : 'is not `> FILE` of stdout alone';
    return { none: `the last command's stdout redirection ${raw} ${why}` };
  }
  const written = redirect.target?.literal;
  if (written === null || written === undefined || written === '') {
    return { none: `the file of ${raw} expands ($VAR, ~, a glob): write it out literally` };
  }
  const earlierCd = script.items.slice(0, -1).some(changesDirectory);
  if (!path.isAbsolute(written) && earlierCd) {
    return { none: `${raw} is relative and an earlier step runs cd: write FILE as an absolute path` };
  }
  return { found: { written, file: path.resolve(startDir, written), redirect } };
}

// A word whose value is `value` exactly, as the parser would make it, at the place of `at`.
function literalWord(value: string, at: Word): Word {
  const word = parseShell(`: ${quoteForBash(value)}`).items[0]!.pipeline.commands[0]!.words[1]!;
  return { ...word, col: at.col, line: at.line };
}

// The script with the qualifying redirection pointed at the staged file instead of FILE.
export function stageFinalRedirect(script: Script, found: FinalRedirect, stagedPath: string): Script {
  const items = script.items.map((item) => ({
    ...item,
    pipeline: {
      ...item.pipeline,
      commands: item.pipeline.commands.map((command) => ({
        ...command,
        redirects: command.redirects.map((redirect) =>
          redirect === found.redirect
            ? { ...redirect, target: literalWord(stagedPath, redirect.target!) }
            : redirect,
        ),
      })),
    },
  }));
  return { ...script, items };
}
