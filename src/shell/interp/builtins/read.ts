import { scalarOf } from '../../expand/variable.js';
import { VarError } from '../../expand/vars.js';
import type { Bytes } from '../../syntax/source.js';
import { assignTarget, expandedTarget } from '../assign-named.js';
import { readWithHelper } from '../read-helper.js';
import { waitStop } from '../wait-stop.js';
import type { BuiltinContext } from './context.js';
import { arrayProblem, parseOptions, type ReadOptions } from './read-options.js';
import { type Ch, continues, owed, ReadSplitter } from './read-split.js';

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
  const { chars, take } = recordTaker(options, utf8Here(ctx));
  const record = await ctx.readInput(input.fd, take);
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

// The record's bytes as read takes them, and the test of each byte read (true: the record ends
// there). In a UTF-8 locale a byte that starts a multi-byte character brings the bytes after it as
// they come (bash 5.2 takes a delimiter or backslash there too, and the byte that spoils the character);
// -n and -N count characters.
function recordTaker(options: ReadOptions, utf8: boolean): { chars: Ch[]; take: (byte: number) => boolean } {
  const chars: Ch[] = [];
  let pendingEscape = false;
  let taken = 0;
  let started: number[] | null = null;
  const counted = () => {
    taken++;
    return options.count !== null && taken >= options.count;
  };
  const add = (byte: number, escaped: boolean) => {
    chars.push({ c: String.fromCharCode(byte), escaped });
    if (utf8 && byte >= 0x80 && owed([byte]) > 0) {
      started = [byte];
      return false;
    }
    return counted();
  };
  const take = (byte: number): boolean => {
    if (started !== null) {
      chars.push({ c: String.fromCharCode(byte), escaped: false });
      const more = continues(byte);
      if (more) started.push(byte);
      if (more && owed(started) > 0) return false;
      started = null;
      return counted();
    }
    if (byte === 0 && options.delim !== 0) return false;
    if (pendingEscape) {
      pendingEscape = false;
      return byte === 10 ? counted() : add(byte, true);
    }
    if (!options.exact && byte === options.delim) return true;
    if (!options.raw && byte === 92) {
      pendingEscape = true;
      return false;
    }
    return add(byte, false);
  };
  return { chars, take };
}

function utf8Here(ctx: BuiltinContext): boolean {
  for (const name of ['LC_ALL', 'LC_CTYPE', 'LANG']) {
    const value = scalarOf(ctx.sh.vars.get(name));
    if (value) return /utf-?8/i.test(value);
  }
  return false;
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

// bash's splitting of a read record (read-split.ts): each name but the last takes one field; the last
// takes the rest, unless the rest is one field and a delimiter.
function assignFields(ctx: BuiltinContext, options: ReadOptions, chars: Ch[]): void {
  const { vars } = ctx.sh;
  const ifsVar = vars.get('IFS');
  const ifs = ifsVar?.value?.kind === 'scalar' ? ifsVar.value.value : ifsVar ? '' : ' \t\n';
  const whole = () => chars.map((ch) => ch.c).join('');
  // -N: not split, the first name (or element) takes exactly what was read, the others nothing.
  if (options.exact) {
    const [first, ...rest] = options.names.length > 0 ? options.names : ['REPLY'];
    if (options.array !== null)
      vars.assignArray(options.array, [{ key: null, value: whole() }], false, 'indexed');
    else for (const name of [first!, ...rest]) vars.assign(name, name === first ? whole() : '');
    return;
  }
  const split = new ReadSplitter(chars, ifs, utf8Here(ctx));
  if (options.array !== null) {
    const fields = split.fields().map((value) => ({ key: null, value }));
    vars.assignArray(options.array, fields, false, 'indexed');
    return;
  }
  if (options.names.length === 0) {
    vars.assign('REPLY', whole());
    return;
  }
  let at = split.lead();
  options.names.forEach((name, k) => {
    if (k < options.names.length - 1) {
      const { word, next } = split.word(at);
      assignTarget(ctx.r, name, word ?? '');
      at = next;
      return;
    }
    assignTarget(ctx.r, name, split.last(at));
  });
}
