import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// bash's names of the signals 1 to 31 on Linux, by number (0 is EXIT).
const NAMES = [
  'EXIT',
  'HUP',
  'INT',
  'QUIT',
  'ILL',
  'TRAP',
  'ABRT',
  'BUS',
  'FPE',
  'KILL',
  'USR1',
  'SEGV',
  'USR2',
  'PIPE',
  'ALRM',
  'TERM',
  'STKFLT',
  'CHLD',
  'CONT',
  'STOP',
  'TSTP',
  'TTIN',
  'TTOU',
  'URG',
  'XCPU',
  'XFSZ',
  'VTALRM',
  'PROF',
  'WINCH',
  'IO',
  'PWR',
  'SYS',
];

// kill -l SIGSPEC...: each number's name (a status above 128 as the signal that gave it), each
// name's number. The whole list (kill -l alone) and the real-time signals, which bash names its own
// way, are refused.
export async function killList(ctx: BuiltinContext, specs: readonly Bytes[]): Promise<number> {
  if (specs.length === 0)
    ctx.refuse("lists the signals by bash's own names and numbers, which safe-run does not do");
  let status = 0;
  for (const spec of specs) {
    const answer = /^[0-9]+$/.test(spec) ? nameOf(Number(spec)) : numberOf(spec);
    if (answer === 'real-time')
      ctx.refuse(`names real-time signal ${spec} as bash does, which safe-run does not do`);
    if (answer === null) status = await ctx.fail(`${spec}: invalid signal specification`);
    else await ctx.out(`${answer}\n`);
  }
  return ctx.finish(status);
}

function nameOf(n: number): string | null | 'real-time' {
  const signal = n > 128 ? n - 128 : n;
  if (signal < NAMES.length) return NAMES[signal]!;
  return signal <= 64 ? 'real-time' : null;
}

function numberOf(spec: Bytes): string | null | 'real-time' {
  const upper = spec.toUpperCase();
  const name = upper.startsWith('SIG') ? upper.slice(3) : upper;
  if (name.startsWith('RTM')) return 'real-time';
  const n = NAMES.indexOf(name);
  return n < 0 ? null : String(n);
}
