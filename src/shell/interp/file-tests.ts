import fs from 'node:fs';
import tty from 'node:tty';
import { elementIsSet, shellArray } from '../expand/param-lookup.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import type { Shell } from './shell.js';

const UNARY_FILE = new Set([
  '-a',
  '-b',
  '-c',
  '-d',
  '-e',
  '-f',
  '-g',
  '-h',
  '-k',
  '-p',
  '-r',
  '-s',
  '-u',
  '-w',
  '-x',
  '-G',
  '-L',
  '-N',
  '-O',
  '-S',
]);

export function isUnaryOp(op: string): boolean {
  return UNARY_FILE.has(op) || ['-t', '-z', '-n', '-o', '-v', '-R'].includes(op);
}

function statOf(path: Bytes, sh: Shell, follow = true): fs.Stats | null {
  if (path === '') return null;
  const full = Buffer.from(path.startsWith('/') ? path : `${sh.cwd}/${path}`, 'latin1');
  try {
    return follow ? fs.statSync(full) : fs.lstatSync(full);
  } catch {
    return null;
  }
}

function access(path: Bytes, sh: Shell, mode: number): boolean {
  if (path === '') return false;
  try {
    fs.accessSync(Buffer.from(path.startsWith('/') ? path : `${sh.cwd}/${path}`, 'latin1'), mode);
    return true;
  } catch {
    return false;
  }
}

// A unary test of test and [[ ]]: files, strings, options, variables.
function unaryTest(op: string, arg: Bytes, sh: Shell): boolean {
  const s = () => statOf(arg, sh);
  switch (op) {
    case '-a':
    case '-e':
      return s() !== null;
    case '-b':
      return s()?.isBlockDevice() ?? false;
    case '-c':
      return s()?.isCharacterDevice() ?? false;
    case '-d':
      return s()?.isDirectory() ?? false;
    case '-f':
      return s()?.isFile() ?? false;
    case '-g':
      return ((s()?.mode ?? 0) & 0o2000) !== 0;
    case '-h':
    case '-L':
      return statOf(arg, sh, false)?.isSymbolicLink() ?? false;
    case '-k':
      return ((s()?.mode ?? 0) & 0o1000) !== 0;
    case '-p':
      return s()?.isFIFO() ?? false;
    case '-r':
      return access(arg, sh, fs.constants.R_OK);
    case '-s':
      return (s()?.size ?? 0) > 0;
    case '-t':
      return /^[0-9]+$/.test(arg.trim()) && tty.isatty(Number(arg));
    case '-u':
      return ((s()?.mode ?? 0) & 0o4000) !== 0;
    case '-w':
      return access(arg, sh, fs.constants.W_OK);
    case '-x':
      return access(arg, sh, fs.constants.X_OK);
    case '-G':
      return s()?.gid === process.getegid?.();
    case '-O':
      return s()?.uid === process.geteuid?.();
    case '-S':
      return s()?.isSocket() ?? false;
    case '-N': {
      const st = s();
      return st !== null && st.mtimeMs > st.atimeMs;
    }
    case '-z':
      return arg === '';
    case '-n':
      return arg !== '';
    case '-o':
      return sh.option(arg);
    case '-v':
      return isSet(arg, sh);
    default:
      return sh.vars.getRaw(arg)?.attrs.nameref ?? false;
  }
}

// -v NAME: the variable is set (an array's element 0); -v NAME[SUB] is testVariable's.
function isSet(arg: Bytes, sh: Shell): boolean {
  // A positional parameter: -v 1 is set when $1 is ($0 always is).
  if (/^\s*[-+]?[0-9]+\s*$/.test(arg)) return Number(arg) >= 0 && Number(arg) <= sh.positional.length;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) return false;
  const value = sh.vars.get(arg)?.value;
  if (!value) return false;
  return value.kind === 'scalar' || (value.kind === 'indexed' ? value.items.has(0) : value.items.has('0'));
}

// test's and [[ ]]'s unary operators, -v NAME[SUB] with its subscript expanded and evaluated.
export async function unaryTestIn(r: RunnerApi, op: Bytes, arg: Bytes): Promise<boolean> {
  const element = op === '-v' ? /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(arg) : null;
  if (element) return elementIsSet(r.ex, element[1]!, element[2]!);
  // The variables the shell computes ($LINENO, $BASH_VERSION, $_) are set; its arrays (FUNCNAME,
  // DIRSTACK) as their element 0 is.
  if (op === '-v' && (arg === '_' || r.ex.env.dynamic(arg) !== undefined)) return true;
  if (op === '-v' && shellArray(r.ex.env, arg)) return elementIsSet(r.ex, arg, '0');
  return unaryTest(op, arg, r.sh);
}

// -nt -ot -ef.
export function fileCompare(op: string, a: Bytes, b: Bytes, sh: Shell): boolean {
  const x = statOf(a, sh);
  const y = statOf(b, sh);
  if (op === '-ef') return x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;
  if (op === '-nt') return x !== null && (y === null || x.mtimeMs > y.mtimeMs);
  return y !== null && (x === null || x.mtimeMs < y.mtimeMs);
}
