import { isName } from '../../syntax/scanner.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// read's options (read.ts).
export interface ReadOptions {
  raw: boolean;
  delim: number;
  count: number | null;
  exact: boolean;
  array: string | null;
  fd: number;
  // -u was given: a closed descriptor is then an invalid one, said before anything is read.
  fdGiven: boolean;
  names: string[];
  // -t: seconds, as written (a read that gives up is bash's own: read-helper.ts).
  timeout: string | null;
}

const USAGE =
  'read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]';

export function parseOptions(ctx: BuiltinContext): ReadOptions | Promise<number> {
  const options: ReadOptions = {
    raw: false,
    delim: 10,
    count: null,
    exact: false,
    array: null,
    fd: 0,
    fdGiven: false,
    names: [],
    timeout: null,
  };
  const args = ctx.args;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    for (let k = 1; k < arg.length; k++) {
      const c = arg[k]!;
      if (c === 'r') options.raw = true;
      else if (c === 's' || c === 'e') continue;
      else if ('adnNptiu'.includes(c)) {
        const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
        if (value === undefined) return ctx.fail(`-${c}: option requires an argument\n${USAGE}`, 2);
        const problem = optionValue(options, c, value);
        if (problem) return ctx.fail(problem);
        break;
      } else return ctx.fail(`-${c}: invalid option\n${USAGE}`, 2);
    }
  }
  options.names = args.slice(i);
  const bad = options.names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*(\[.+\])?$/s.test(name));
  if (bad !== undefined) return ctx.fail(`\`${bad}': not a valid identifier`);
  return options;
}

function optionValue(options: ReadOptions, c: string, value: Bytes): string | null {
  if (c === 'a') options.array = value;
  else if (c === 'd') options.delim = value === '' ? 0 : value.charCodeAt(0);
  else if (c === 'n' || c === 'N') {
    // (A count is a C int to bash.)
    if (!/^[0-9]+$/.test(value) || Number(value) > 2 ** 31 - 1) return `${value}: invalid number`;
    options.count = Number(value);
    options.exact = c === 'N';
  } else if (c === 'u') {
    if (!/^[0-9]+$/.test(value)) return `${value}: invalid file descriptor specification`;
    options.fd = Number(value);
    options.fdGiven = true;
  } else if (c === 't') {
    if (!/^([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) return `${value}: invalid timeout specification`;
    options.timeout = value;
  }
  return null;
}

// -a names no variable, or an associative array: bash says so once the record is read, and assigns
// nothing.
export function arrayProblem(ctx: BuiltinContext, options: ReadOptions): string | null {
  const name = options.array;
  if (name === null) return null;
  if (!isName(name)) return `\`${name}': not a valid identifier`;
  const variable = ctx.sh.vars.get(name);
  const assoc = variable?.attrs.array === 'assoc' || variable?.value?.kind === 'assoc';
  return assoc ? `${name}: not an indexed array` : null;
}
