import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { parseInline } from '../../src/inputs/inline-grammar.js';

function words(text: string): string[] {
  const stages = parseInline(text);
  expect(stages).toHaveLength(1);
  return stages[0]!.argv;
}

function refusal(text: string): { code: string; message: string } {
  try {
    parseInline(text);
  } catch (error) {
    if (isRequestError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

function expectRefused(text: string, code: string, column: number): string {
  const { code: actual, message } = refusal(text);
  expect(actual).toBe(code);
  expect(message).toMatch(/^-c: /);
  expect(message).toContain(`column ${column} `);
  expect(message).not.toMatch(/[\n\r]/);
  return message;
}

describe('quoting', () => {
  it('keeps everything inside single quotes literally', () => {
    expect(words(`echo 'a "b" \\c $d \`e\` | f; *'`)).toEqual(['echo', 'a "b" \\c $d `e` | f; *']);
  });

  it('removes a backslash inside double quotes only before " \\ $ and `', () => {
    expect(words('echo "\\" \\\\ \\$ \\`"')).toEqual(['echo', '" \\ $ `']);
    expect(words('echo "\\a \\n \\\' \\|"')).toEqual(['echo', "\\a \\n \\' \\|"]);
  });

  it('makes the next character literal after a backslash outside quotes', () => {
    expect(words('echo \\; \\| \\$x \\* a\\ b \\\\ \\"')).toEqual([
      'echo',
      ';',
      '|',
      '$x',
      '*',
      'a b',
      '\\',
      '"',
    ]);
  });

  it('keeps a backslash that ends the text, as bash does', () => {
    expect(words('echo a\\')).toEqual(['echo', 'a\\']);
  });

  it('joins adjacent quoted and unquoted parts into one word', () => {
    expect(words(`echo a"b"'c'\\d`)).toEqual(['echo', 'abcd']);
  });

  it('turns \'\' and "" into empty arguments', () => {
    expect(words(`printf '' "" x''`)).toEqual(['printf', '', '', 'x']);
  });

  it('keeps a quoted newline as a newline in the word', () => {
    expect(words('echo \'a\nb\' "c\nd"')).toEqual(['echo', 'a\nb', 'c\nd']);
  });

  it('separates words by spaces and tabs only', () => {
    expect(words(' \techo\t a\r\vb  ')).toEqual(['echo', 'a\r\vb']);
  });

  it('splits stages at "|" with or without spaces', () => {
    expect(parseInline('a 1|b 2 | c|d').map((stage) => stage.argv)).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c'],
      ['d'],
    ]);
  });

  it('keeps a quoted or escaped "|" inside a word', () => {
    expect(parseInline(`grep 'a|b' "c|d" e\\|f`)).toEqual([{ argv: ['grep', 'a|b', 'c|d', 'e|f'], env: {} }]);
  });

  it('counts columns in characters, not bytes or UTF-16 units', () => {
    expectRefused('echo é😀;', 'syntax.operator', 8);
  });
});

describe('assignments', () => {
  it('turns leading NAME=value words into the stage environment', () => {
    expect(parseInline(`LC_ALL=C _x1="a b" EMPTY= sort -u`)).toEqual([
      { argv: ['sort', '-u'], env: { LC_ALL: 'C', _x1: 'a b', EMPTY: '' } },
    ]);
  });

  it('treats NAME=value after the command as an ordinary argument', () => {
    expect(parseInline('A=1 make CC=gcc B=2')).toEqual([
      { argv: ['make', 'CC=gcc', 'B=2'], env: { A: '1' } },
    ]);
  });

  it('gives each stage its own environment', () => {
    expect(parseInline('A=1 a | B=2 b')).toEqual([
      { argv: ['a'], env: { A: '1' } },
      { argv: ['b'], env: { B: '2' } },
    ]);
  });

  it('lets the last of two assignments to one name win', () => {
    expect(parseInline('A=1 A=2 env')[0]!.env).toEqual({ A: '2' });
  });

  it('runs a word with a quoted or escaped name or "=" as the command', () => {
    expect(parseInline(`"A"=1 x`)[0]).toEqual({ argv: ['A=1', 'x'], env: {} });
    expect(parseInline(`A\\=1 x`)[0]).toEqual({ argv: ['A=1', 'x'], env: {} });
    expect(parseInline(`''A=1 x`)[0]).toEqual({ argv: ['A=1', 'x'], env: {} });
    expect(parseInline(`1A=1 x`)[0]).toEqual({ argv: ['1A=1', 'x'], env: {} });
  });

  it('keeps an assignment to __proto__ as an ordinary variable', () => {
    const [stage] = parseInline('__proto__=x env');
    expect(Object.entries(stage!.env)).toEqual([['__proto__', 'x']]);
  });

  it('refuses a stage that only assigns variables', () => {
    expectRefused('A=1', 'syntax.no-command', 1);
    expectRefused('a | A=1 B=2', 'syntax.no-command', 5);
  });

  it('refuses NAME+=value before the command, where bash appends', () => {
    expectRefused('PATH+=:/opt/bin cmd', 'syntax.assignment', 1);
    expect(words('cmd a+=b')).toEqual(['cmd', 'a+=b']);
  });

  it('refuses names bash would not pass to the command as written', () => {
    for (const name of ['UID', 'EUID', 'PPID', 'SHELLOPTS', 'BASHOPTS', 'GROUPS', 'FUNCNAME', '_']) {
      expectRefused(`x=1 ${name}=0 env`, 'syntax.assignment', 5);
    }
  });
});

describe('refused constructs', () => {
  const cases: Array<[string, string, string, number]> = [
    ['";"', 'a;b', 'syntax.operator', 2],
    ['"&"', 'sleep 1 &', 'syntax.operator', 9],
    ['"&&"', 'a && b', 'syntax.operator', 3],
    ['"||"', 'a||b', 'syntax.operator', 2],
    ['"|&"', 'a |& b', 'syntax.operator', 3],
    ['">"', 'a >out', 'syntax.operator', 3],
    ['"2>"', 'a 2>err', 'syntax.operator', 4],
    ['"<"', 'a <in', 'syntax.operator', 3],
    ['"("', '(a)', 'syntax.operator', 1],
    ['")"', 'a)', 'syntax.operator', 2],
    ['"$"', 'echo $HOME', 'syntax.expansion', 6],
    ['"$\'...\'"', "echo $'a'", 'syntax.expansion', 6],
    ['a backtick', 'echo `date`', 'syntax.expansion', 6],
    ['"$" inside double quotes', 'echo "a $b"', 'syntax.expansion', 9],
    ['a backtick inside double quotes', 'echo "`x`"', 'syntax.expansion', 7],
    ['"*"', 'ls *.c', 'syntax.glob', 4],
    ['"?"', 'ls a?', 'syntax.glob', 5],
    ['"["', 'ls [ab]', 'syntax.glob', 4],
    ['a newline', 'a\nb', 'syntax.newline', 2],
    ['a trailing newline', 'a\n', 'syntax.newline', 2],
    ['a line continuation', 'a \\\nb', 'syntax.newline', 3],
    ['a line continuation inside double quotes', 'a "b\\\nc"', 'syntax.newline', 5],
    ['"~" at the start of a word', 'ls ~/src', 'syntax.tilde', 4],
    ['"~" after "=" in an assignment', 'HOME_DIR=~ env', 'syntax.tilde', 10],
    ['"~" after ":" in an assignment', 'P=/bin:~/bin env', 'syntax.tilde', 8],
    ['"~" after "=" in an assignment-like argument', 'env a=~', 'syntax.tilde', 7],
    ['"~" after ":" in an assignment-like argument', 'env a=b:c:~', 'syntax.tilde', 11],
    ['"#" at the start of a word', 'a #b', 'syntax.comment', 3],
    ['"#" right after "|"', 'a |#b', 'syntax.comment', 4],
    ['"!" as a command', '! grep x', 'syntax.reserved', 1],
    ['"!" as an argument', 'test ! -e x', 'syntax.reserved', 6],
    ['"[[" as a command', '[[ -e x ]]', 'syntax.reserved', 1],
    ['a reserved word after assignments', 'A=1 while', 'syntax.reserved', 5],
    ['a reserved word in a later stage', 'a | time b', 'syntax.reserved', 5],
    ['brace expansion with a comma', 'cp a{b,c}', 'syntax.brace', 5],
    ['brace expansion with an escaped space before it', 'echo \\ {a,b}', 'syntax.brace', 8],
    ['a sequence expression', 'echo {1..3}', 'syntax.brace', 6],
    ['a nested brace expansion', 'echo {a,{b}}', 'syntax.brace', 6],
    ['an inner brace expansion', 'echo {{a,b}', 'syntax.brace', 7],
    ['brace expansion whose closing brace is escaped once', 'echo {a\\}a,b}', 'syntax.brace', 6],
    ['brace expansion after a plain brace pair', 'echo {a}{b,c}', 'syntax.brace', 9],
    ['brace expansion that bash closes at the second "}"', 'echo {a},}', 'syntax.brace', 6],
    ['brace expansion made of "{}" and more', 'echo x{}a,}', 'syntax.brace', 7],
    ['a leading "|"', '| a', 'syntax.empty-stage', 1],
    ['a trailing "|"', 'a |', 'syntax.empty-stage', 3],
    ['"| |"', 'a | | b', 'syntax.empty-stage', 5],
    ['an unterminated single quote', "echo 'abc", 'syntax.unterminated', 6],
    ['an unterminated double quote', 'echo a "b\\"', 'syntax.unterminated', 8],
    ['a command starting with "%"', "'%1'", 'syntax.job', 1],
    ['a NUL character', 'a\0b', 'syntax.nul', 2],
  ];

  it.each(cases)('refuses %s', (_what, text, code, column) => {
    expectRefused(text, code, column);
  });

  it.each([
    'if',
    'then',
    'elif',
    'else',
    'fi',
    'case',
    'esac',
    'for',
    'select',
    'while',
    'until',
    'do',
    'done',
    'function',
    'time',
    'coproc',
    'in',
    '{',
    '}',
    ']]',
  ])('refuses the reserved word %s in command position and accepts it quoted or as an argument', (word) => {
    expectRefused(`  ${word} x`, 'syntax.reserved', 3);
    expect(words(`"${word}" x`)).toEqual([word, 'x']);
    expect(words(`x ${word}`)).toEqual(['x', word]);
  });

  it('refuses an empty or blank pipeline', () => {
    expect(refusal('').code).toBe('syntax.empty');
    expect(refusal(' \t ').code).toBe('syntax.empty');
  });

  it('words the message as the one-line example in the issue', () => {
    expect(refusal('echo a; b').message).toBe(
      `-c: unquoted ";" at column 7 is shell syntax (a command separator) that safe-run does not interpret; quote it (";") to pass it as text, or run: safe-run -- bash -c '...'`,
    );
  });

  it('keeps a message on one line when it quotes text with a newline', () => {
    const message = expectRefused("echo {a,'\n'}", 'syntax.brace', 6);
    expect(message).toContain(`"{a,'\\n'}"`);
  });
});

describe('constructs bash treats as plain words', () => {
  it.each([
    ['find -exec {} \\;', ['find', '-exec', '{}', ';']],
    ['echo a{b}c {a},{b} {a,b a,b}', ['echo', 'a{b}c', '{a},{b}', '{a,b', 'a,b}']],
    ["echo {a\\,b} {a',b'} {1'..'3} {a.\\.b}", ['echo', '{a,b}', '{a,b}', '{1..3}', '{a..b}']],
    ['echo {},} \\ {},}', ['echo', '{},}', ' {},}']],
    [
      "echo a~ '~' ''~ \\~ --prefix=~/x a:~ a=b=~",
      ['echo', 'a~', '~', '~', '~', '--prefix=~/x', 'a:~', 'a=b=~'],
    ],
    ["echo a#b '#' x'#'", ['echo', 'a#b', '#', 'x#']],
    ['echo !a a! a]b ^x %y @z +w', ['echo', '!a', 'a!', 'a]b', '^x', '%y', '@z', '+w']],
    ['x%1', ['x%1']],
  ])('accepts %s', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it('keeps a quoted "~" in an assignment literal', () => {
    expect(parseInline(`A="~" B=x:'~' env`)[0]!.env).toEqual({ A: '~', B: 'x:~' });
  });
});

// The words bash produces are the reference: every input below is run through the real bash.
describe('agreement with bash', () => {
  let cwd = '';
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'inline-grammar-'));
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  function bash(script: string): string[] {
    // stdin is /dev/null: on a socket, bash would think it was started by sshd and read ~/.bashrc.
    const result = spawnSync('bash', ['--norc', '-c', script], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const fields = result.stdout.split('\0');
    expect(fields.pop()).toBe('');
    return fields;
  }

  // The first argument is fixed so that an input of no words still prints one.
  const PRINTF = `printf '%s\\0' first `;
  const anyChar = fc.constantFrom(...'aZ09 \t\n\\\'"$`|;&<>()*?[]{}~#!=:,.%-é'.split(''));
  const plainChar = fc.constantFrom(...'aZ09-_./:=+@%^,]é\r\v'.split(''));
  const dqChar = anyChar.filter((c) => !'"\\$`'.includes(c));
  const part = fc.oneof(
    fc.string({ unit: plainChar, minLength: 1, maxLength: 4 }),
    fc.string({ unit: anyChar.filter((c) => c !== "'"), maxLength: 4 }).map((s) => `'${s}'`),
    fc
      .array(fc.oneof(dqChar, fc.constantFrom('\\"', '\\\\', '\\$', '\\`', '\\a', "\\'", '\\ ')), {
        maxLength: 4,
      })
      .map((items) => `"${items.join('')}"`),
    anyChar.filter((c) => c !== '\n').map((c) => `\\${c}`),
  );
  const word = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
  const blank = fc.constantFrom(' ', '  ', '\t', ' \t ');
  const joinWords = (list: string[], seps: string[]) => list.map((w, k) => `${w}${seps[k] ?? ' '}`).join('');
  const wordList = fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 5 }), fc.array(blank, { maxLength: 5 }))
    .map(([list, seps]) => joinWords(list, seps));

  it('splits words exactly as bash does', () => {
    fc.assert(
      fc.property(wordList, (input) => {
        const text = `${PRINTF}${input}`;
        expect(parseInline(text)[0]!.argv.slice(2)).toEqual(bash(text));
      }),
      { seed: 20_240_601, numRuns: 200 },
    );
  });

  const NAMES = ['SRT_A', 'SRT_b9', '_SRT', 'SRT__'];
  const assignment = fc
    .tuple(fc.constantFrom(...NAMES), fc.array(part, { maxLength: 3 }))
    .map(([name, parts]) => `${name}=${parts.join('')}`);
  const stageText = fc
    .tuple(fc.array(assignment, { maxLength: 3 }), fc.array(word, { maxLength: 3 }), blank)
    .map(([assignments, args, sep]) => [...assignments, 'sr_probe', ...args].join(sep));
  const pipe = fc.constantFrom('|', ' |', '| ', ' | ', '\t|\t');

  it('splits stages and assignments exactly as bash does', () => {
    const probe = `sr_probe() { printf '%s\\0' "$#" "$@"; env -0; printf '%s\\0' END; }\n`;
    fc.assert(
      fc.property(fc.array(fc.tuple(stageText, pipe), { minLength: 1, maxLength: 3 }), (stages) => {
        const text = stages.map(([stage, sep], k) => (k === 0 ? stage : `${sep}${stage}`)).join('');
        const fields = bash(probe + stages.map(([stage]) => stage).join('\n'));
        const expected = [];
        while (fields.length > 0) {
          const count = Number(fields.shift());
          const argv = ['sr_probe', ...fields.splice(0, count)];
          const end = fields.indexOf('END');
          const entries = fields.splice(0, end + 1).slice(0, -1);
          const env = Object.fromEntries(
            entries
              .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)])
              .filter(([name]) => NAMES.includes(name!)),
          );
          expected.push({ argv, env });
        }
        expect(parseInline(text)).toEqual(expected);
      }),
      { seed: 20_240_602, numRuns: 100 },
    );
  });

  // Characters whose meaning depends on where they stand: whatever safe-run accepts, bash must agree with.
  const edgeChar = fc.constantFrom(...'ab{},.~#!=:+%_A \'"\\'.split(''));
  const edgeInput = fc.string({ unit: edgeChar, minLength: 1, maxLength: 12 });

  it('gives the words bash gives for every edge-case input it accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(edgeInput, (input) => {
        const text = `${PRINTF}${input}`;
        let argv: string[];
        try {
          argv = parseInline(text)[0]!.argv;
        } catch (error) {
          if (!isRequestError(error)) throw error;
          expect(error.message).toMatch(/^-c: [^\n]* at column \d+ /);
          return;
        }
        accepted += 1;
        expect(argv.slice(2)).toEqual(bash(text));
      }),
      { seed: 20_240_603, numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
