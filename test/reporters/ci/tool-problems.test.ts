import { describe, expect, it } from 'vitest';
import { findProblems } from '../../../src/reporters/ci/tool-problems.js';

// The parser of tools' diagnostics, on output as the tools print it (gcc 12, tsc 5.9, pytest 9 and
// eslint's unix formatter; the CLI tests run the real ones where this machine has them).

const ESC = '\x1b';

describe('gcc and clang', () => {
  it('reads errors, fatal errors and warnings with and without a column, and passes over notes and code frames', () => {
    const text = [
      "src/bad.c: In function 'main':",
      "src/bad.c:4:18: error: 'missing' undeclared (first use in this function)",
      '    4 |   printf("%d\\n", missing);',
      '      |                  ^~~~~~~',
      'src/bad.c:4:18: note: each undeclared identifier is reported only once for each function it appears in',
      "src/bad.c:3:7: warning: unused variable 'unused' [-Wunused-variable]",
      'include/x.h:9: fatal error: y.h: No such file or directory',
      'collect2: error: ld returned 1 exit status',
      'make: *** [Makefile:3: all] Error 1',
    ].join('\n');
    expect(findProblems(text)).toEqual([
      {
        level: 'error',
        file: 'src/bad.c',
        line: 4,
        col: 18,
        message: "'missing' undeclared (first use in this function)",
        code: null,
      },
      {
        level: 'warning',
        file: 'src/bad.c',
        line: 3,
        col: 7,
        message: "unused variable 'unused' [-Wunused-variable]",
        code: null,
      },
      {
        level: 'error',
        file: 'include/x.h',
        line: 9,
        col: null,
        message: 'y.h: No such file or directory',
        code: null,
      },
    ]);
  });

  it('reads lines coloured by -fdiagnostics-color and ended by CRLF', () => {
    const text = `${ESC}[01m${ESC}[Ksrc/a.c:2:5:${ESC}[m${ESC}[K ${ESC}[01;31m${ESC}[Kerror: ${ESC}[m${ESC}[Kexpected ';'\r\n`;
    expect(findProblems(text)).toEqual([
      { level: 'error', file: 'src/a.c', line: 2, col: 5, message: "expected ';'", code: null },
    ]);
  });

  it('takes no time of day for a file, and each problem once', () => {
    const text = '12:00:01: error: not a file\na.c:1:1: error: twice\na.c:1:1: error: twice\n';
    expect(findProblems(text).map((p) => p.message)).toEqual(['twice']);
  });
});

describe('tsc', () => {
  it('reads the plain format with its indented explanation, and --pretty', () => {
    const plain = [
      "src/a.ts(1,7): error TS2322: Type '{ a: number; }' is not assignable to type 'B'.",
      "  Object literal may only specify known properties, and 'a' does not exist in type 'B'.",
      'src/b.ts(12,3): error TS2304: Cannot find name "x".',
      '',
      'Found 2 errors in 2 files.',
    ].join('\n');
    const pretty = `${ESC}[96msrc/c.ts${ESC}[0m:${ESC}[93m2${ESC}[0m:${ESC}[93m33${ESC}[0m - ${ESC}[91merror${ESC}[0m${ESC}[90m TS2322: ${ESC}[0mType 'string' is not assignable to type 'number'.\n\n${ESC}[7m2${ESC}[0m function f(a: string): number { return a; }\n`;
    expect(findProblems(`${plain}\n${pretty}`)).toEqual([
      {
        level: 'error',
        file: 'src/a.ts',
        line: 1,
        col: 7,
        message:
          "Type '{ a: number; }' is not assignable to type 'B'.\nObject literal may only specify known properties, and 'a' does not exist in type 'B'.",
        code: 'TS2322',
      },
      {
        level: 'error',
        file: 'src/b.ts',
        line: 12,
        col: 3,
        message: 'Cannot find name "x".',
        code: 'TS2304',
      },
      {
        level: 'error',
        file: 'src/c.ts',
        line: 2,
        col: 33,
        message: "Type 'string' is not assignable to type 'number'.",
        code: 'TS2322',
      },
    ]);
  });
});

describe("eslint's unix formatter", () => {
  it('reads the level and the rule in brackets, a parsing error without one, and not the count', () => {
    const text = [
      "/repo/src/a.js:1:10: 'foo' is defined but never used. [Error/no-unused-vars]",
      '/repo/src/a.js:2:3: Missing semicolon. [Warning/semi]',
      '/repo/src/b.js:4:1: Parsing error: Unexpected token } [Error]',
      '',
      '3 problems',
    ].join('\n');
    expect(findProblems(text)).toEqual([
      {
        level: 'error',
        file: '/repo/src/a.js',
        line: 1,
        col: 10,
        message: "'foo' is defined but never used.",
        code: 'no-unused-vars',
      },
      {
        level: 'warning',
        file: '/repo/src/a.js',
        line: 2,
        col: 3,
        message: 'Missing semicolon.',
        code: 'semi',
      },
      {
        level: 'error',
        file: '/repo/src/b.js',
        line: 4,
        col: 1,
        message: 'Parsing error: Unexpected token }',
        code: null,
      },
    ]);
  });
});

describe('pytest', () => {
  it("reads each failure's location line, with its E lines as the message and its test as the code", () => {
    const text = [
      '___________________________________ test_one ___________________________________',
      '',
      '    def test_one():',
      '>       assert 1 + 1 == 3',
      'E       assert (1 + 1) == 3',
      '',
      'tests/test_a.py:5: AssertionError',
      '___________________________________ test_two ___________________________________',
      '',
      '    def test_two():',
      '>       helper(1)',
      '',
      'tests/test_a.py:8: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '',
      '    def helper(x):',
      '>       assert x == 2, "x should be two"',
      'E       AssertionError: x should be two',
      'E       assert 1 == 2',
      '',
      'tests/test_a.py:2: AssertionError',
      'tests/test_b.py:7: in test_three',
      'tests/test_c.py:3: requests.exceptions.ConnectionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_a.py::test_one - assert (1 + 1) == 3',
    ].join('\n');
    expect(findProblems(text)).toEqual([
      {
        level: 'error',
        file: 'tests/test_a.py',
        line: 5,
        col: null,
        message: 'assert (1 + 1) == 3',
        code: 'test_one: AssertionError',
      },
      {
        level: 'error',
        file: 'tests/test_a.py',
        line: 2,
        col: null,
        message: 'AssertionError: x should be two\nassert 1 == 2',
        code: 'test_two: AssertionError',
      },
      {
        level: 'error',
        file: 'tests/test_c.py',
        line: 3,
        col: null,
        message: 'requests.exceptions.ConnectionError',
        code: 'test_two: requests.exceptions.ConnectionError',
      },
    ]);
  });
});

describe('what is not read', () => {
  it('passes over ordinary output, indented lines and lines too long to be a diagnostic', () => {
    const long = `a.c:1:1: error: ${'x'.repeat(5000)}`;
    const text = [
      'compiling a.c',
      '  a.c:1:1: error: indented',
      long,
      'error: no place',
      'a.c: error: no line',
    ].join('\n');
    expect(findProblems(text)).toEqual([]);
  });
});
