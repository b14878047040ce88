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

// Then 32 and 33 (glibc's own: no name), and the real-time ones as bash names them: RTMIN, RTMIN+1
// to RTMIN+15, RTMAX-14 to RTMAX-1, RTMAX (34 to 64).
const ALL: (string | null)[] = [
  ...NAMES,
  null,
  null,
  'RTMIN',
  ...Array.from({ length: 15 }, (_, k) => `RTMIN+${k + 1}`),
  ...Array.from({ length: 14 }, (_, k) => `RTMAX-${14 - k}`),
  'RTMAX',
];

// The trap names past the signals (bash's NSIG is 65 on Linux).
const TRAPS = ['DEBUG', 'ERR', 'RETURN'];

// kill -l (and trap -l): every signal as `NN) SIGNAME`, five to a line, each followed by a tab but
// the fifth of a line (the last line ends in one too), as bash lists them.
export function signalTable(): string {
  let out = '';
  let column = 0;
  for (const [n, name] of ALL.entries()) {
    if (n === 0 || name === null) continue;
    out += `${String(n).padStart(2)}) SIG${name}`;
    column = (column + 1) % 5;
    out += column === 0 ? '\n' : '\t';
  }
  return column === 0 ? out : `${out}\n`;
}

// kill -l SIGSPEC...: each number's name (a status above 128 as the signal that gave it; 32 and 33
// print nothing), each name's number (SIG and case optional, RTMIN+N for any N up to 30).
export async function killList(ctx: BuiltinContext, specs: readonly Bytes[]): Promise<number> {
  if (specs.length === 0) {
    await ctx.out(signalTable());
    return ctx.finish(0);
  }
  let status = 0;
  for (const spec of specs) {
    const answer = /^\s*[-+]?[0-9]+\s*$/.test(spec) ? nameOf(Number(spec)) : numberOf(spec);
    if (answer === undefined) status = await ctx.fail(`${spec}: invalid signal specification`);
    else if (answer !== null) await ctx.out(`${answer}\n`);
  }
  return ctx.finish(status);
}

// null: a number with no name (nothing printed); undefined: no signal.
function nameOf(n: number): string | null | undefined {
  const signal = n > 128 ? n - 128 : n;
  return signal >= 0 && signal < ALL.length ? ALL[signal] : undefined;
}

function numberOf(spec: Bytes): string | undefined {
  const upper = spec.toUpperCase();
  const rtmin = /^(?:SIG)?RTMIN\+(.*)$/s.exec(upper);
  if (rtmin) {
    const n = /^\s*\+?[0-9]+\s*$/.test(rtmin[1]!) ? Number(rtmin[1]) : -1;
    return n >= 0 && n <= 30 ? String(34 + n) : undefined;
  }
  const trap = TRAPS.indexOf(upper);
  if (trap >= 0) return String(ALL.length + trap);
  if (upper === 'EXIT') return '0';
  const n = ALL.indexOf(upper.startsWith('SIG') ? upper.slice(3) : upper);
  return n > 0 ? String(n) : undefined;
}
