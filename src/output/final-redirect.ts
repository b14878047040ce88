import path from 'node:path';
import type { Command, Redirect, Script, SimpleCommand, Stmt, Word } from '../shell/syntax/nodes.js';
import { fromBytes, toBytes } from '../shell/syntax/source.js';

// --atomic-redirects (docs/publishing-outputs.md): the one redirection of a -c text that can be
// staged like --output. It qualifies when all of these hold:
// - it is on the last simple command of the text's last top-level list (what the text's exit
//   status is about);
// - it is `>` or `>|` of stdout (`> FILE`, `1> FILE`): `>>` appends to what is there, which a rename
//   cannot do; `&>` and `2>` are not the product;
// - it is the last redirection of that command that moves stdout (`> a > b` leaves a empty);
// - FILE is written literally (quotes are fine; no $VAR, ~, glob): it is known before anything runs;
// - FILE is absolute, or no earlier command is a `cd`: the directory FILE is relative to is known.
export interface FinalRedirect {
  // FILE as written (after quote removal), and resolved against the run's starting directory.
  written: string;
  file: string;
  redirect: Redirect;
  // The redirection as written, for messages.
  raw: string;
}

type FinalRedirectResult = { found: FinalRedirect } | { none: string };

function movesStdout(redirect: Redirect): boolean {
  return (
    redirect.fd === 1 ||
    (redirect.fd === null && redirect.op.startsWith('>')) ||
    redirect.op === '&>' ||
    redirect.op === '&>>'
  );
}

function lastCommand(script: Script): Command | undefined {
  const stmt: Stmt | undefined = script.stmts.at(-1);
  const list = stmt?.body;
  const pipeline = list?.rest.at(-1)?.pipeline ?? list?.first;
  return pipeline?.commands.at(-1);
}

// The word's value when it is literal text (quotes removed), else null.
function literalValue(word: Word): string | null {
  let out = '';
  for (const part of word.parts) {
    if (part.kind === 'sq') out += part.value;
    else if (part.kind === 'lit' && !/[$`*?[~{\\]/.test(part.value)) out += part.value;
    else if (part.kind === 'dq' && part.parts.every((p) => p.kind === 'lit' && !/[$`\\]/.test(p.value))) {
      out += part.parts.map((p) => (p as { value: string }).value).join('');
    } else return null;
  }
  return fromBytes(out);
}

function isCd(command: Command): boolean {
  if (command.kind !== 'simple') return false;
  const first = command.words[0]?.parts[0];
  return first?.kind === 'lit' && first.value === 'cd';
}

export function findFinalRedirect(script: Script, source: string, startDir: string): FinalRedirectResult {
  const command = lastCommand(script);
  const redirect =
    command && command.kind === 'simple' ? command.redirects.filter(movesStdout).at(-1) : undefined;
  if (!command || !redirect) {
    return {
      none: 'the last command of the text does not end in > FILE (use --output FILE to stage its stdout)',
    };
  }
  const raw = fromBytes(source.slice(redirect.start.offset, redirect.end.offset));
  const shown = JSON.stringify(raw);
  if (redirect.op !== '>' && redirect.op !== '>|') {
    const why =
      redirect.op === '>>' || redirect.op === '&>>'
        ? 'appends, which a rename cannot stage'
        : 'is not `> FILE` of stdout alone';
    return { none: `the last command's stdout redirection ${shown} ${why}` };
  }
  const written = literalValue(redirect.target);
  if (written === null || written === '') {
    return { none: `the file of ${shown} expands ($VAR, ~, a glob): write it out literally` };
  }
  const earlierCd = script.stmts.some((stmt) =>
    [stmt.body.first, ...stmt.body.rest.map((r) => r.pipeline)].some((p) =>
      p.commands.some((c) => c !== command && isCd(c)),
    ),
  );
  if (!path.isAbsolute(written) && earlierCd) {
    return { none: `${shown} is relative and an earlier command runs cd: write FILE as an absolute path` };
  }
  return { found: { written, file: path.resolve(startDir, written), redirect, raw } };
}

// The script with the qualifying redirection pointed at the staged file instead of FILE.
export function stageFinalRedirect(script: Script, found: FinalRedirect, stagedPath: string): Script {
  const { redirect } = found;
  const staged: Redirect = {
    ...redirect,
    target: {
      parts: [
        { kind: 'sq', value: toBytes(stagedPath), start: redirect.target.start, end: redirect.target.end },
      ],
      start: redirect.target.start,
      end: redirect.target.end,
    },
  };
  const swap = (command: Command): Command => {
    if (command.kind !== 'simple' || !command.redirects.includes(redirect)) return command;
    return {
      ...command,
      redirects: command.redirects.map((r) => (r === redirect ? staged : r)),
    } as SimpleCommand;
  };
  const stmts = script.stmts.map((stmt) => ({
    ...stmt,
    body: {
      ...stmt.body,
      first: { ...stmt.body.first, commands: stmt.body.first.commands.map(swap) },
      rest: stmt.body.rest.map((r) => ({
        ...r,
        pipeline: { ...r.pipeline, commands: r.pipeline.commands.map(swap) },
      })),
    },
  }));
  return { ...script, stmts };
}
