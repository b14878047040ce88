import { describe, expect, it } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { parseShell } from '../../src/shell/parse-shell.js';
import { parseText } from '../../src/shell/plan-shell.js';

function refusal(text: string): { code: string; column: number | null; message: string } {
  try {
    parseText(text, null);
  } catch (error) {
    if (isRequestError(error)) return { code: error.code, column: error.column, message: error.message };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('the syntax tree', () => {
  it('splits lists into pipelines with their connectors and columns', () => {
    const script = parseShell('cd src && ls | wc -l || echo no; make\n# done\npwd');
    expect(script.items.map((item) => [item.connector, item.pipeline.text, item.pipeline.col])).toEqual([
      [null, 'cd src', 1],
      ['&&', 'ls | wc -l', 11],
      ['||', 'echo no', 25],
      [';', 'make', 34],
      [';', 'pwd', 46],
    ]);
  });

  it('keeps redirections in the order written, with the descriptor each one moves', () => {
    const [item] = parseShell('cmd 2>&1 >out.txt 2>>err <in &>all |& tail').items;
    const redirects = item!.pipeline.commands[0]!.redirects.map((r) => [
      r.op,
      r.fd,
      r.dupFrom,
      r.target?.raw ?? null,
    ]);
    expect(redirects).toEqual([
      ['dup', 2, 1, null],
      ['>', 1, null, 'out.txt'],
      ['>>', 2, null, 'err'],
      ['<', 0, null, 'in'],
      ['&>', 1, null, 'all'],
      ['dup', 2, 1, null],
    ]);
  });

  it('reads heredoc bodies after the line, byte for byte, with <<- tab stripping', () => {
    const script = parseShell("cat <<'A' | cat <<-B\n$x `y` \\z\nA\n\tplain\n\tB\necho after");
    const bodies = script.items[0]!.pipeline.commands.map((c) => c.redirects[0]!.body);
    expect(bodies).toEqual(['$x `y` \\z\n', 'plain\n']);
    expect(script.items[1]!.pipeline.text).toBe('echo after');
  });

  it('takes $(cat <<EOF ... EOF) as its body, minus trailing newlines', () => {
    const [item] = parseShell('git commit -m "$(cat <<\'EOF\'\nFix: x\n\nbody $HOME\n\nEOF\n)"').items;
    const word = item!.pipeline.commands[0]!.words[3]!;
    expect(word.literal).toBe('Fix: x\n\nbody $HOME');
  });

  it('knows which words bash must expand and which are plain', () => {
    const [item] = parseShell(`echo plain 'q $x' "d" a\\*b $HOME "$x" ~ *.c {a,b} x=~`).items;
    expect(item!.pipeline.commands[0]!.words.map((w) => w.literal)).toEqual([
      'echo',
      'plain',
      'q $x',
      'd',
      'a*b',
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('refusals', () => {
  const cases: Array<[string, string, number, RegExp]> = [
    ['for f in *; do echo $f; done', 'syntax.reserved', 1, /for loop at column 1/],
    ['ls && (cd x; make)', 'syntax.subshell', 7, /subshell/],
    ['sleep 1 &', 'syntax.background', 9, /"?&"? at column 9|& at column 9/],
    ['echo $(date)', 'syntax.command-substitution', 6, /\$\( at column 6/],
    ['echo `date`', 'syntax.command-substitution', 6, /command substitution `...`/],
    ['echo $((1+2))', 'syntax.arithmetic', 6, /\$\(\( at column 6/],
    ['cmd 3>&1', 'syntax.redirect-fd', 5, /3>&1 at column 5/],
    ['diff <(sort a) b', 'syntax.process-substitution', 6, /<\( at column 6 is a process substitution/],
    ['echo $$', 'syntax.dynamic-parameter', 6, /\$\$ at column 6/],
    ['echo ${x:=1}', 'syntax.parameter', 6, /assigns a variable/],
    ['source venv/bin/activate', 'syntax.builtin', 1, /builtin source at column 1/],
    ['f() { ls; }', 'syntax.function', 1, /function definition/],
    ['cat <<EOF\n$HOME\nEOF', 'syntax.heredoc', 5, /quote the delimiter/],
    ['export A=1 > f', 'syntax.redirect', 12, /export with a redirection/],
    ['X=1 export X', 'syntax.assignment', 1, /NAME=value before export at column 1/],
    ['export X={a,} | cat', 'syntax.brace', 10, /\{ in export X=\{a,\} at column 10/],
    // `[[` scans as a glob and `{` as a brace, yet bash reads both as reserved words.
    ['[[ -f x ]] && echo y', 'syntax.reserved', 1, /conditional \[\[ \.\.\. \]\] at column 1/],
    ['ls && ! X=1 [[ -n $HOME ]]', 'syntax.reserved', 13, /conditional \[\[/],
    ['{ ls; }', 'syntax.reserved', 1, /group \{ \.\.\.; \} at column 1/],
    ['((i++))', 'syntax.arithmetic', 1, /arithmetic command \(\( \.\.\. \)\) at column 1/],
    ['( (ls) )', 'syntax.subshell', 1, /subshell/],
    ['time ls', 'syntax.reserved', 1, /time keyword/],
    ["cat <<$'EOF'\nx\nEOF", 'syntax.heredoc', 5, /\$'\.\.\.' or \$"\.\.\." delimiter/],
    ['X[0]=1; echo $X', 'syntax.assignment', 1, /X\[ at column 1 assigns an array element/],
    ['X["a b"]=1 env', 'syntax.assignment', 1, /assigns an array element/],
    ['echo $SHELLOPTS', 'syntax.dynamic-parameter', 6, /\(SHELLOPTS\) that safe-run cannot give/],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    ['echo ${#BASH_EXECUTION_STRING}', 'syntax.dynamic-parameter', 6, /BASH_EXECUTION_STRING/],
    ['__sr_n=$HOME; echo $__sr_n', 'syntax.assignment', 1, /a name safe-run's expansion helper uses itself/],
    ['kill 0; echo after', 'syntax.builtin', 1, /kill 0 at column 1 signals the shell's own process group/],
    ['ls && kill -s TERM -- 0', 'syntax.builtin', 7, /kill 0/],
  ];
  it.each(cases)('refuses %j with its code, column and the way out', (text, code, column, message) => {
    const found = refusal(text);
    expect(found.code).toBe(code);
    expect(found.column).toBe(column);
    expect(found.message).toMatch(message);
    expect(found.message).toMatch(/--fallback bash/);
    expect(found.message).not.toMatch(/quote it/);
  });

  it('advises --fallback bash alone (a spec file is one pipeline), and --leftovers keep for a background job', () => {
    expect(refusal('for f in *; do echo $f; done').message).not.toMatch(/spec file/);
    expect(refusal('npm run dev & sleep 1').message).toMatch(
      /--fallback bash to run the whole text as one supervised bash stage \(with --leftovers keep if the job is to outlive the run\)$/,
    );
  });

  it('keeps quoted or escaped [[ and { as words, and calls a stray ]] or } a syntax error', () => {
    for (const text of ['"[[" -f x ]]', '\\[[ -f x ]]', 'echo [[ ]] { }', '{a,b}', '{ls']) {
      expect(() => parseShell(text), text).not.toThrow();
    }
    for (const text of [']]', 'echo a; }', '{ls;}']) {
      expect(refusal(text).message).toMatch(/reserved word out of place \(a syntax error in bash\)/);
    }
    expect(refusal('true | ! false').message).toMatch(
      /^-c: "!" at column 8 after a "\|" is a syntax error in bash/,
    );
    for (const text of [
      'echo X[0]=1',
      'a[b',
      'ls >&out.txt',
      'cat <<"EOF"\nx\nEOF',
      'kill -- -123',
      'kill -l 0',
    ]) {
      expect(() => parseText(text, null), text).not.toThrow();
    }
  });

  it('refuses a carriage return, saying where, without printing it raw', () => {
    const found = refusal('ls\r\n');
    expect(found.code).toBe('syntax.control');
    expect(found.message).toMatch(/carriage return .* at column 3/);
    expect(found.message).not.toMatch(/\r/);
  });

  it('refuses text that bash itself would reject as a syntax error, without a fallback', () => {
    for (const text of ['ls &&', '| wc', "echo 'open", 'a ;; b', 'cat < \\\n | wc -l']) {
      expect(refusal(text).message).not.toMatch(/--fallback/);
    }
  });

  it('reads a line continuation after a redirection operator as nothing, as bash does', () => {
    expect(refusal('cat < \\\n | wc -l')).toMatchObject({ code: 'syntax.redirect', column: 5 });
    const [item] = parseShell('cat < \\\nin.txt').items;
    expect(item!.pipeline.commands[0]!.redirects[0]!.target!.raw).toBe('in.txt');
  });
});
