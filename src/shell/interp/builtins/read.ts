import { VarError } from '../../expand/vars.js';
import type { Bytes } from '../../syntax/source.js';
import { assignTarget, expandedTarget } from '../assign-named.js';
import { readWithHelper } from '../read-helper.js';
import { waitStop } from '../wait-stop.js';
import type { BuiltinContext } from './context.js';
import { arrayProblem, parseOptions, type ReadOptions } from './read-options.js';

// read [-r] [-a array] [-d delim] [-n|-N count] [-u fd] [-p prompt] [names]: one record from the
// input, never a byte past it, split by IFS into the names as bash splits it.
export async function read(ctx: BuiltinContext): Promise<number> {
  const options = parseOptions(ctx);
  if (options instanceof Promise) return options;
  options.names = await Promise.all(options.names.map((name) => expandedTarget(ctx.r, name)));
  const input = ctx.input(options.fd);
  if (input.fd === null) {
    if (input.why === 'closed')
      return ctx.fail(
        options.fdGiven
          ? `${options.fd}: invalid file descriptor: Bad file descriptor`
          : `read error: ${options.fd}: Bad file descriptor`,
      );
    assignFields(ctx, options, []);
    return 1;
  }
  if (options.timeout !== null) return readInTime(ctx, options, input.fd);
  // -n 0 (or -N 0): nothing is read, and the names are emptied.
  if (options.count === 0) {
    assignFields(ctx, options, []);
    return 0;
  }
  const chars: { c: string; escaped: boolean }[] = [];
  let pendingEscape = false;
  let taken = 0;
  const record = await ctx.readInput(input.fd, (byte) => {
    const c = String.fromCharCode(byte);
    if (byte === 0 && options.delim !== 0) return false;
    if (pendingEscape) {
      pendingEscape = false;
      if (c !== '\n') chars.push({ c, escaped: true });
      taken++;
      return options.count !== null && taken >= options.count;
    }
    if (!options.exact && byte === options.delim) return true;
    if (!options.raw && c === '\\') {
      pendingEscape = true;
      return false;
    }
    chars.push({ c, escaped: false });
    taken++;
    return options.count !== null && taken >= options.count;
  });
  if ('unreadable' in record) return ctx.fail(`read error: ${options.fd}: Bad file descriptor`);
  const noArray = arrayProblem(ctx, options);
  if (noArray !== null) return ctx.fail(noArray);
  try {
    assignFields(ctx, options, chars);
  } catch (error) {
    if (error instanceof VarError) return ctx.fail(error.message, 1, false);
    throw error;
  }
  return record.eof ? 1 : 0;
}

// read -t: the record read by bash itself (read-helper.ts), its values assigned here.
async function readInTime(ctx: BuiltinContext, options: ReadOptions, fd: number): Promise<number> {
  const flags: Bytes[] = options.raw ? ['-r'] : [];
  if (options.delim !== 10) flags.push('-d', String.fromCharCode(options.delim));
  if (options.count !== null) flags.push(options.exact ? '-N' : '-n', String(options.count));
  flags.push('-t', options.timeout!);
  const ifsVar = ctx.sh.vars.get('IFS');
  const ifs = ifsVar?.value?.kind === 'scalar' ? ifsVar.value.value : ifsVar ? '' : null;
  const names = options.array !== null ? 'a' : options.names.length;
  const { status, values, stderr } = await readWithHelper(waitStop(ctx.r), fd, {
    options: flags,
    names,
    ifs,
  });
  if (stderr) await ctx.err(stderr);
  const noArray = arrayProblem(ctx, options);
  if (noArray !== null) return ctx.fail(noArray);
  // -t 0 only asks whether there is input: nothing is read, no name is set.
  if (Number(options.timeout) === 0) return status;
  const { vars } = ctx.sh;
  try {
    if (options.array !== null)
      vars.assignArray(
        options.array,
        values.map((value) => ({ key: null, value })),
        false,
        'indexed',
      );
    else if (options.names.length === 0) vars.assign('REPLY', values[0] ?? '');
    else for (const [i, name] of options.names.entries()) assignTarget(ctx.r, name, values[i] ?? '');
  } catch (error) {
    if (error instanceof VarError) return ctx.fail(error.message, 1, false);
    throw error;
  }
  return status;
}

type Ch = { c: string; escaped: boolean };

// bash's splitting of a read record: IFS white space trimmed around fields; each name but the last
// takes one field; the last takes the rest, unless the rest is one field and a delimiter.
function assignFields(ctx: BuiltinContext, options: ReadOptions, chars: Ch[]): void {
  const { vars } = ctx.sh;
  const ifsVar = vars.get('IFS');
  const ifs = ifsVar?.value?.kind === 'scalar' ? ifsVar.value.value : ifsVar ? '' : ' \t\n';
  // -N: not split, the first name (or element) takes exactly what was read, the others nothing.
  if (options.exact) {
    const whole = chars.map((ch) => ch.c).join('');
    const [first, ...rest] = options.names.length > 0 ? options.names : ['REPLY'];
    if (options.array !== null)
      vars.assignArray(options.array, [{ key: null, value: whole }], false, 'indexed');
    else for (const name of [first!, ...rest]) vars.assign(name, name === first ? whole : '');
    return;
  }
  if (options.array !== null) {
    const fields: Bytes[] = [];
    let at = skipWhite(chars, 0, ifs);
    while (at < chars.length) {
      const { word, next } = takeWord(chars, at, ifs);
      fields.push(word);
      at = next;
    }
    vars.assignArray(
      options.array,
      fields.map((value) => ({ key: null, value })),
      false,
      'indexed',
    );
    return;
  }
  if (options.names.length === 0) {
    vars.assign('REPLY', chars.map((ch) => ch.c).join(''));
    return;
  }
  let at = skipWhite(chars, 0, ifs);
  options.names.forEach((name, k) => {
    if (k < options.names.length - 1) {
      const { word, next } = takeWord(chars, at, ifs);
      assignTarget(ctx.r, name, word);
      at = next;
      return;
    }
    assignTarget(ctx.r, name, lastField(chars.slice(at), ifs));
  });
}

const white = (c: string, ifs: string) => (c === ' ' || c === '\t' || c === '\n') && ifs.includes(c);

function skipWhite(chars: Ch[], from: number, ifs: string): number {
  let at = from;
  while (at < chars.length && !chars[at]!.escaped && white(chars[at]!.c, ifs)) at++;
  return at;
}

// One field from `from`, and where the next starts (past its delimiter and the white space around it).
function takeWord(chars: Ch[], from: number, ifs: string): { word: Bytes; next: number } {
  let at = from;
  let word = '';
  while (at < chars.length && (chars[at]!.escaped || !ifs.includes(chars[at]!.c))) word += chars[at++]!.c;
  at = skipWhite(chars, at, ifs);
  if (at < chars.length && !chars[at]!.escaped && ifs.includes(chars[at]!.c) && !white(chars[at]!.c, ifs)) {
    at = skipWhite(chars, at + 1, ifs);
  }
  return { word, next: at };
}

function lastField(rest: Ch[], ifs: string): Bytes {
  const { word, next } = takeWord(rest, 0, ifs);
  if (next >= rest.length) return word;
  let end = rest.length;
  while (end > 0 && !rest[end - 1]!.escaped && white(rest[end - 1]!.c, ifs)) end--;
  return rest
    .slice(0, end)
    .map((ch) => ch.c)
    .join('');
}
