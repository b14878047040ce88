import { isName } from '../../syntax/scanner.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

const USAGE =
  'mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]';
// What bash calls a value of each option that is not a number.
const INVALID: Record<string, string> = {
  '-n': 'invalid line count',
  '-s': 'invalid line count',
  '-O': 'invalid array origin',
  '-u': 'invalid file descriptor specification',
};

interface MapfileOptions {
  delim: number;
  count: number;
  origin: number | null;
  skip: number;
  strip: boolean;
  fd: number;
  name: string;
}

// Its options as bash's getopt takes them (-tn1, -n 1, then `--`), up to the first word that is
// none: the array's name (later words are not looked at); a status when one is wrong.
async function mapfileOptions(ctx: BuiltinContext): Promise<MapfileOptions | number> {
  const options: MapfileOptions = {
    delim: 10,
    count: 0,
    origin: null,
    skip: 0,
    strip: false,
    fd: 0,
    name: 'MAPFILE',
  };
  const args = ctx.args;
  let i = 0;
  for (; i < args.length && /^-./.test(args[i]!); i++) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    for (let k = 1; k < arg.length; k++) {
      const c = arg[k]!;
      if (c === 't') {
        options.strip = true;
        continue;
      }
      if (!'dnOsuCc'.includes(c)) return ctx.usage(USAGE, `-${c}: invalid option`);
      const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
      if (value === undefined) return ctx.fail(`-${c}: option requires an argument`, 2);
      const problem = optionValue(ctx, options, c, value);
      if (problem !== null) return problem;
      break;
    }
  }
  if (i < args.length) options.name = args[i]!;
  if (!isName(options.name)) return ctx.fail(`\`${options.name}': not a valid identifier`);
  return options;
}

function optionValue(
  ctx: BuiltinContext,
  options: MapfileOptions,
  c: string,
  value: Bytes,
): Promise<number> | null {
  if (c === 'd') options.delim = value === '' ? 0 : value.charCodeAt(0);
  else if (c === 'C' || c === 'c')
    ctx.refuse(`runs a callback (-${c}), which safe-run's mapfile does not do`);
  else if (!/^[0-9]+$/.test(value)) return ctx.fail(`${value}: ${INVALID[`-${c}`]}`);
  else if (c === 'n') options.count = Number(value);
  else if (c === 'O') options.origin = Number(value);
  else if (c === 's') options.skip = Number(value);
  else options.fd = Number(value);
  return null;
}

// mapfile / readarray [-d delim] [-n count] [-O origin] [-s skip] [-t] [-u fd] [array]: the records
// of the input (never a byte past the last one taken) into an indexed array.
export async function mapfile(ctx: BuiltinContext): Promise<number> {
  const options = await mapfileOptions(ctx);
  if (typeof options === 'number') return options;
  const { delim, count, origin, skip, strip, fd, name } = options;
  const variable = ctx.sh.vars.get(name);
  if (variable?.attrs.readonly) return ctx.fail(`${name}: readonly variable`, 1, false);
  if (variable?.attrs.array === 'assoc' || variable?.value?.kind === 'assoc')
    return ctx.fail(`${name}: not an indexed array`);
  const input = ctx.input(fd);
  if (input.fd === null && input.why === 'closed')
    return ctx.fail(`${fd}: invalid file descriptor: Bad file descriptor`);
  const records: Bytes[] = [];
  let seen = 0;
  while (input.fd !== null && (count === 0 || records.length < count)) {
    const { bytes, eof } = await ctx.readInput(input.fd, (byte) => byte === delim);
    if (bytes.length === 0 && eof) break;
    seen++;
    let text = bytes.toString('latin1');
    // A NUL delimiter goes whatever -t says: bash's variables cannot hold one.
    if ((strip || delim === 0) && !eof) text = text.slice(0, -1);
    if (seen > skip) records.push(text);
    if (eof) break;
  }
  const keep = origin !== null && variable?.value?.kind === 'indexed';
  const start = origin ?? 0;
  const elements = records.map((value, k) => ({ key: String(start + k), value }));
  ctx.sh.vars.assignArray(name, elements, keep, 'indexed');
  return 0;
}
