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

// mapfile / readarray [-d delim] [-n count] [-O origin] [-s skip] [-t] [-u fd] [array]: the records
// of the input (never a byte past the last one taken) into an indexed array.
export async function mapfile(ctx: BuiltinContext): Promise<number> {
  let delim = 10;
  let count = 0;
  let origin: number | null = null;
  let skip = 0;
  let strip = false;
  let fd = 0;
  let name = 'MAPFILE';
  const args = ctx.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-t') strip = true;
    else if (/^-[dnOsuCc]$/.test(arg)) {
      const value = args[++i];
      if (value === undefined) return ctx.fail(`${arg}: option requires an argument`, 2);
      if (arg === '-d') delim = value === '' ? 0 : value.charCodeAt(0);
      else if (arg === '-C' || arg === '-c')
        ctx.refuse(`runs a callback (${arg}), which safe-run's mapfile does not do`);
      else if (!/^[0-9]+$/.test(value)) return ctx.fail(`${value}: ${INVALID[arg]}`);
      else if (arg === '-n') count = Number(value);
      else if (arg === '-O') origin = Number(value);
      else if (arg === '-s') skip = Number(value);
      else fd = Number(value);
    } else if (/^-./.test(arg)) return ctx.usage(USAGE, `${arg}: invalid option`);
    else name = arg;
  }
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
