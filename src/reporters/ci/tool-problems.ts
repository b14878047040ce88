// Problems a tool reported in its output, read from the lines of a kept stream in the formats most
// CI steps print: gcc and clang (`file:line:col: error: msg`), tsc (`file(line,col): error TS2322:
// msg`, and its --pretty `file:line:col - error TS2322: msg`), eslint's unix formatter (`file:line:col:
// msg [Error/rule]`) and pytest's long traceback (`file:line: ErrorType`). Pure: text in, data out.

type ProblemLevel = 'error' | 'warning';

export interface ToolProblem {
  level: ProblemLevel;
  // As the tool printed it (relative to the tool's directory, or absolute).
  file: string;
  line: number;
  col: number | null;
  message: string;
  // A short label: tsc's code, eslint's rule, pytest's test and exception type; null when none.
  code: string | null;
}

// Lines longer than this are not read (a minified bundle, a data dump): no tool's diagnostic is.
const MAX_LINE = 4096;
// Lines of a message that continues below its first line (tsc's explanation, pytest's E lines).
const MAX_MESSAGE_LINES = 10;

// Terminal escapes (gcc -fdiagnostics-color, tsc --pretty) and a CR before the newline.
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r$/g;

const GCC = /^([^\s:<][^:]*?):(\d+):(?:(\d+):)? (fatal error|error|warning): (.+)$/;
const TSC = /^([^\s(][^(]*?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.+)$/;
const TSC_PRETTY = /^([^\s:][^:]*?):(\d+):(\d+) - (error|warning) (TS\d+): (.+)$/;
const ESLINT = /^([^\s:][^:]*?):(\d+):(\d+): (.+) \[(Error|Warning)(?:\/([^\]]+))?\]$/;
const PYTEST = /^([^\s:][^:]*\.py):(\d+): ([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)$/;
const PYTEST_HEADER = /^_{3,} (.+?) _{3,}$/;
const PYTEST_E = /^E {3,}(.*)$/;

function levelOf(word: string): ProblemLevel {
  return word.toLowerCase() === 'warning' ? 'warning' : 'error';
}

// A file name of digits alone is a time of day (`12:00:01: error: ...` from a log), not a file.
const NOT_A_FILE = /^\d+$/;

function at(file: string, line: string, col: string | undefined) {
  return { file, line: Number(line), col: col === undefined ? null : Number(col) };
}

// One line on its own: a problem, or null.
function readLine(line: string): ToolProblem | null {
  const problem = readFormats(line);
  return problem === null || NOT_A_FILE.test(problem.file) ? null : problem;
}

function readFormats(line: string): ToolProblem | null {
  let m = GCC.exec(line);
  if (m) return { level: levelOf(m[4]!), ...at(m[1]!, m[2]!, m[3]), message: m[5]!, code: null };
  m = TSC.exec(line) ?? TSC_PRETTY.exec(line);
  if (m) return { level: levelOf(m[4]!), ...at(m[1]!, m[2]!, m[3]), message: m[6]!, code: m[5]! };
  m = ESLINT.exec(line);
  if (m) return { level: levelOf(m[5]!), ...at(m[1]!, m[2]!, m[3]), message: m[4]!, code: m[6] ?? null };
  return null;
}

// pytest: the E lines of a failure come before its `file:line: Type` line, under a `___ test ___`
// header; the problem is the location line, its message the E lines.
class PytestBlock {
  private test: string | null = null;
  private explained: string[] = [];

  read(line: string): ToolProblem | null {
    const header = PYTEST_HEADER.exec(line);
    if (header) {
      this.test = header[1]!;
      this.explained = [];
      return null;
    }
    const e = PYTEST_E.exec(line);
    if (e) {
      if (this.explained.length < MAX_MESSAGE_LINES) this.explained.push(e[1]!.trimEnd());
      return null;
    }
    const m = PYTEST.exec(line);
    if (!m) return null;
    const type = m[3]!;
    const message = this.explained.length > 0 ? this.explained.join('\n') : type;
    this.explained = [];
    const code = this.test === null ? type : `${this.test}: ${type}`;
    return { level: 'error', ...at(m[1]!, m[2]!, undefined), message, code };
  }
}

// tsc explains a problem on the lines below it, indented.
function continues(problem: ToolProblem | null, line: string): problem is ToolProblem {
  return (
    problem !== null &&
    problem.code?.startsWith('TS') === true &&
    /^ {2,}\S/.test(line) &&
    problem.message.split('\n').length < MAX_MESSAGE_LINES
  );
}

// Every problem in `text`, in the order printed, each once.
export function findProblems(text: string): ToolProblem[] {
  const found: ToolProblem[] = [];
  const seen = new Set<string>();
  const pytest = new PytestBlock();
  let last: ToolProblem | null = null;
  for (const raw of text.split('\n')) {
    if (raw.length > MAX_LINE) continue;
    const line = raw.includes('\x1b') || raw.endsWith('\r') ? raw.replace(ESCAPES, '') : raw;
    if (continues(last, line)) {
      last.message += `\n${line.trim()}`;
      continue;
    }
    last = readLine(line) ?? pytest.read(line);
    if (last === null) continue;
    const key = JSON.stringify([last.level, last.file, last.line, last.col, last.message]);
    if (seen.has(key)) last = null;
    else {
      seen.add(key);
      found.push(last);
    }
  }
  return found;
}
