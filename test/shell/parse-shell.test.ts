import { describe, expect, it } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { parseText } from '../../src/shell/plan-shell.js';
import type { Command, Script, SimpleCommand, Word } from '../../src/shell/syntax/nodes.js';
import { parseScript } from '../../src/shell/syntax/parse.js';

function refusal(text: string): { code: string; column: number | null; message: string } {
  try {
    parseText(text, null);
  } catch (error) {
    if (isRequestError(error)) return { code: error.code, column: error.column, message: error.message };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

const source = (text: string, node: { start: { offset: number }; end: { offset: number } }) =>
  text.slice(node.start.offset, node.end.offset);

function simple(script: Script, stmt = 0, command = 0): SimpleCommand {
  const found = script.stmts[stmt]!.body.first.commands[command] as Command;
  if (found.kind !== 'simple') throw new Error(`not a simple command: ${found.kind}`);
  return found;
}

const lit = (word: Word) =>
  word.parts.map((part) => (part.kind === 'lit' ? part.value : `<${part.kind}>`)).join('');

describe('the syntax tree', () => {
  it('splits a text into statements, and-or lists and pipelines, each with its place', () => {
    const text = 'cd src && ls | wc -l || echo no; make\n# done\npwd &';
    const script = parseScript(text);
    expect(
      script.stmts.map((stmt) => [source(text, stmt.body).trim(), stmt.background, stmt.start.line]),
    ).toEqual([
      ['cd src && ls | wc -l || echo no', false, 1],
      ['make', false, 1],
      ['pwd', true, 3],
    ]);
    const first = script.stmts[0]!.body;
    expect(first.rest.map((part) => [part.op, source(text, part.pipeline), part.pipeline.start.col])).toEqual(
      [
        ['&&', 'ls | wc -l', 11],
        ['||', 'echo no', 25],
      ],
    );
    expect(first.rest[0]!.pipeline.commands).toHaveLength(2);
  });

  it('keeps redirections in the order written, with the descriptor each one moves', () => {
    const text = 'cmd 2>&1 >out.txt 2>>err <in &>all 3<>rw';
    const redirects = simple(parseScript(text)).redirects.map((r) => [r.op, r.fd, lit(r.target)]);
    expect(redirects).toEqual([
      ['>&', 2, '1'],
      ['>', null, 'out.txt'],
      ['>>', 2, 'err'],
      ['<', null, 'in'],
      ['&>', null, 'all'],
      ['<>', 3, 'rw'],
    ]);
  });

  it('reads heredoc bodies after the line, with <<- tab stripping and quoted delimiters taken as written', () => {
    const text = "cat <<'A' | cat <<-B\n$x `y` \\z\nA\n\tplain\n\tB\necho after";
    const script = parseScript(text);
    const bodies = script.stmts[0]!.body.first.commands.map((command) => {
      const heredoc = (command as SimpleCommand).redirects[0]!.heredoc!;
      const body = heredoc.body.parts
        .map((part) => ('value' in part ? part.value : `<${part.kind}>`))
        .join('');
      return [heredoc.delimiter, heredoc.quoted, body];
    });
    expect(bodies[0]).toEqual(['A', true, '$x `y` \\z\n']);
    expect(bodies[1]).toEqual(['B', false, 'plain\n']);
    expect(script.stmts[1]!.start.line).toBe(6);
  });

  it('parses compound commands, functions and nested substitutions as bash reads them', () => {
    const text = 'f() { for i in 1 2; do echo "$(echo $((i+1)))"; done; }\nif [[ -n $x ]]; then (exit 3); fi';
    const script = parseScript(text);
    const kinds = script.stmts.map((stmt) => stmt.body.first.commands[0]!.kind);
    expect(kinds).toEqual(['function', 'if']);
    const word = (parseScript('echo "a$(b "c")d"').stmts[0]!.body.first.commands[0] as SimpleCommand)
      .words[1]!;
    expect(word.parts[0]!.kind).toBe('dq');
  });

  it('keeps quoted or escaped reserved words as words, and calls a stray one a syntax error', () => {
    for (const text of ['"[[" -f x ]]', '\\[[ -f x ]]', 'echo [[ ]] { }', '{a,b}', '{ls', 'echo X[0]=1']) {
      expect(() => parseText(text, null), text).not.toThrow();
    }
    for (const text of [']]', 'echo a; }', '{ls;}', 'fi', 'done']) {
      expect(refusal(text).message, text).toMatch(/syntax error/);
    }
  });
});

describe('refusals', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['f=<(sort a) b', 3, /<\( \.\.\. \) at column 3 is a process substitution/],
    ['select x in a b; do echo $x; done', 1, /select loop at column 1/],
    ['coproc cat', 1, /coproc at column 1/],
    ['enable -n echo', 1, /builtin enable at column 1/],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    ['echo ${x@P}', 6, /@P\} at column 6/],
  ];
  it.each(cases)('refuses %j with its column and the way out', (text, column, message) => {
    const found = refusal(text);
    expect(found.column).toBe(column);
    expect(found.message).toMatch(message);
    expect(found.message).toMatch(/add --fallback bash to run the whole text as one supervised bash stage/);
  });

  it('runs under --fallback bash what it refuses', () => {
    const parsed = parseText('select x in a; do :; done', 'bash');
    expect(parsed.script).toBeNull();
    expect(parsed.fallback).toMatchObject({ column: 1 });
  });

  it('refuses text that bash itself would reject as a syntax error, without a fallback', () => {
    for (const text of ['ls &&', '| wc', "echo 'open", 'a ;; b', 'cat < \\\n | wc -l', 'if true; then']) {
      expect(refusal(text).message, text).not.toMatch(/--fallback/);
      expect(() => parseText(text, 'bash'), text).toThrow();
    }
  });

  it('says which construct is never closed and the word expected, on one line, with no placeholder', () => {
    // `if true; then echo` once read: unexpected "then" at {at} is never closed (a syntax error in bash)
    // at column 1 (a syntax error in bash).
    const cases: [string, string][] = [
      ['if true; then echo', '-c: "if" at column 1 is never closed: "fi" expected (a syntax error in bash)'],
      [
        'echo a; while true',
        '-c: "while" at column 9 is never closed: "do" expected (a syntax error in bash)',
      ],
      ['{ echo', '-c: "{" at column 1 is never closed: "}" expected (a syntax error in bash)'],
      [
        'for x in a; do echo',
        '-c: "for" at column 1 is never closed: "done" expected (a syntax error in bash)',
      ],
    ];
    for (const [text, message] of cases) expect(refusal(text).message, text).toBe(message);
    for (const text of [
      'if true; then',
      '(echo',
      'case x in',
      '[[ a',
      "echo 'x",
      'echo "x',
      'echo $(x',
      'if {at}',
      'echo )',
    ]) {
      const { message } = refusal(text);
      expect(message, text).not.toMatch(/\{at\}|\n/);
      expect(message.match(/a syntax error in bash/g)?.length ?? 0, text).toBeLessThanOrEqual(1);
    }
  });

  it('reads a line continuation after a redirection operator as nothing, as bash does', () => {
    const command = simple(parseScript('cat < \\\nin.txt'));
    expect(lit(command.redirects[0]!.target)).toBe('in.txt');
  });
});
