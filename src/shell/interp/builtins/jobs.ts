import os from 'node:os';
import type { Bytes } from '../../syntax/source.js';
import { sendToJob } from '../job-signals.js';
import { Jobs } from '../jobs-table.js';
import type { BuiltinContext } from './context.js';
import { killList, signalTable } from './kill-list.js';
import { signalShell } from './self-signal.js';

const SIGNALS = os.constants.signals as Record<string, number>;

// A signal as trap and kill take it: a name with or without SIG, a number, or EXIT/0 and the shell's
// own pseudo-signals. Null when it is none of them.
function signalName(text: Bytes): string | null {
  const upper = text.toUpperCase();
  if (upper === '0' || upper === 'EXIT') return 'EXIT';
  if (['ERR', 'DEBUG', 'RETURN'].includes(upper)) return upper;
  if (/^[0-9]+$/.test(upper)) {
    const found = Object.entries(SIGNALS).find(([, n]) => n === Number(upper));
    return found ? found[0].slice(3) : null;
  }
  const name = upper.startsWith('SIG') ? upper.slice(3) : upper;
  return `SIG${name}` in SIGNALS ? name : null;
}

// The name trap -p prints a trap under, and its place in bash's list: EXIT, the signals by number,
// then DEBUG, ERR and RETURN.
const PSEUDO = ['DEBUG', 'ERR', 'RETURN'];
const shownName = (signal: string) =>
  signal === 'EXIT' || PSEUDO.includes(signal) ? signal : `SIG${signal}`;
function trapRank(signal: string): number {
  if (signal === 'EXIT') return 0;
  const pseudo = PSEUDO.indexOf(signal);
  return pseudo >= 0 ? 1000 + pseudo : (SIGNALS[`SIG${signal}`] ?? 999);
}

// trap -p [signal...]: the traps set, each as a trap command; the ones named in their order (a name
// that is no signal is an error, status 1), or all in bash's order.
async function printTraps(ctx: BuiltinContext, names: readonly Bytes[]): Promise<number> {
  const { traps } = ctx.sh;
  const line = (signal: string) =>
    `trap -- '${traps.get(signal)!.replaceAll("'", `'\\''`)}' ${shownName(signal)}\n`;
  let status = 0;
  if (names.length === 0)
    for (const signal of [...traps.keys()].sort((a, b) => trapRank(a) - trapRank(b)))
      await ctx.out(line(signal));
  for (const name of names) {
    const signal = signalName(name);
    if (signal === null) status = await ctx.fail(`${name}: invalid signal specification`);
    else if (traps.has(signal)) await ctx.out(line(signal));
  }
  return ctx.finish(status);
}

// trap [-lp] [[action] signal...]: the actions the shell runs; EXIT and ERR are run by the runner.
export async function trap(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  // Options as bash's getopt takes them: -l, -p, together (-lp), then `--`.
  const flags = new Set<string>();
  let k = 0;
  for (; k < ctx.args.length && /^-[lp]+$/.test(ctx.args[k]!); k++)
    for (const flag of ctx.args[k]!.slice(1)) flags.add(flag);
  const usage = 'trap [-lp] [[arg] signal_spec ...]';
  if (ctx.args[k] === '--') k++;
  else if (/^-./.test(ctx.args[k] ?? '')) return ctx.usage(usage, `${ctx.args[k]}: invalid option`);
  const args = ctx.args.slice(k);
  if (flags.has('l')) {
    await ctx.out(signalTable());
    return ctx.finish(0);
  }
  if (args.length === 0 || flags.has('p')) return printTraps(ctx, args);
  if (args.length === 1 && (args[0] === '-' || signalName(args[0]!) === null)) return ctx.usage(usage);
  const reset = args.length === 1 || args[0] === '-' || /^[0-9]+$/.test(args[0]!);
  const action = reset ? null : args[0]!;
  let status = 0;
  for (const spec of reset && args[0] !== '-' ? args : args.slice(1)) {
    const signal = signalName(spec);
    if (signal === null) {
      status = await ctx.fail(`${spec}: invalid signal specification`);
      continue;
    }
    if (signal === 'DEBUG') ctx.refuse(`sets a ${signal} trap, which safe-run's interpreter does not run`);
    if (action === null) sh.traps.delete(signal);
    else sh.traps.set(signal, action);
  }
  return status;
}

// jobs [-lprs] [%job...]: the jobs still running, as bash -c lists them ("[1]+  Running  TEXT &");
// -p: their first process ids only, -l: with them. (An ended job is not listed, as in bash -c.)
export async function jobsBuiltin(ctx: BuiltinContext): Promise<number> {
  const jobs = new Jobs();
  for (const job of [...ctx.sh.seenJobs, ...ctx.sh.jobs.list]) jobs.add(job);
  const flags = new Set<string>();
  let k = 0;
  for (; k < ctx.args.length && /^-[lnprs]+$/.test(ctx.args[k]!); k++)
    for (const flag of ctx.args[k]!.slice(1)) flags.add(flag);
  if (ctx.args[k] === '--') k++;
  if (ctx.args[k]?.startsWith('-')) return ctx.fail(`${ctx.args[k]}: invalid option`, 2);
  const listed = jobs.list.filter((job) => job.status === null && !job.reported);
  let status = 0;
  let shown = listed;
  if (k < ctx.args.length) {
    shown = [];
    for (const spec of ctx.args.slice(k)) {
      const job = jobs.find(spec);
      if (job && listed.includes(job)) shown.push(job);
      else if (!job) status = await ctx.fail(`${spec}: no such job`);
    }
  }
  if (flags.has('s')) shown = [];
  for (const job of shown) {
    const first = job.pids[0] === undefined ? '' : String(job.pids[0]);
    if (flags.has('p')) {
      if (first) await ctx.out(`${first}\n`);
      continue;
    }
    const rank = listed.length - 1 - listed.indexOf(job);
    const mark = rank === 0 ? '+' : rank === 1 ? '-' : ' ';
    const pid = flags.has('l') ? `${first} ` : '';
    await ctx.out(`[${job.id}]${mark}  ${pid}${'Running'.padEnd(24)}${job.text} &\n`);
  }
  return ctx.finish(status);
}

// kill [-s sig | -sig] pid|%job...: a job is stopped as safe-run stops its commands; a signal to the
// shell itself ($$, 0, -$$) is delivered to the interpreted shell (self-signal.ts); no other process
// is signalled, since only the text's jobs are provably the run's own.
const KILL_USAGE = 'kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]';

export async function kill(ctx: BuiltinContext): Promise<number> {
  if (ctx.args.length === 0) return ctx.usage(KILL_USAGE);
  const options = killOptions(ctx.args);
  if ('missing' in options) return ctx.fail(`${options.missing}: option requires an argument`);
  if (options.usage) return ctx.usage(KILL_USAGE);
  const { args, spec } = options;
  if (options.listing) return killList(ctx, args);
  const signal = spec === null ? 'TERM' : signalName(spec);
  if (signal === null || ['ERR', 'DEBUG', 'RETURN'].includes(signal))
    return ctx.fail(`${spec}: invalid signal specification`);
  if (args.length === 0) return ctx.usage(KILL_USAGE);
  let status = 0;
  for (const target of args) status = Math.max(status, await killOne(ctx, target, signal));
  return status;
}

// Its options as bash reads them, in any order: -l or -L (listing, which wins: `kill -9 -l`), -s SIG,
// -n NUM, -sSIG, -nNUM, and the first -SIG (a later -N is a process group); `--` ends them. `spec`:
// the last signal given, checked only when not listing (`kill -l -x` lists them all).
function killOptions(
  all: readonly Bytes[],
): { missing: Bytes } | { usage: boolean; listing: boolean; spec: Bytes | null; args: readonly Bytes[] } {
  let listing = false;
  let spec: Bytes | null = null;
  let k = 0;
  for (; k < all.length; k++) {
    const word = all[k]!;
    if (word === '-l' || word === '-L') listing = true;
    else if (word === '-s' || word === '-n') {
      if (k + 1 >= all.length) return { missing: word };
      spec = all[++k]!;
    } else if (/^-s[A-Za-z]|^-n[0-9]/.test(word)) spec = word.slice(2);
    else if (word === '--') {
      k++;
      break;
    } else if (word === '-?') return { usage: true, listing, spec, args: [] };
    else if (word.startsWith('-') && spec === null) spec = word.slice(1);
    else break;
  }
  return { usage: false, listing, spec, args: all.slice(k) };
}

async function killOne(ctx: BuiltinContext, target: Bytes, signal: string): Promise<number> {
  const { rt } = ctx.r;
  const ownGroup = target === '0' || target === `-${rt.pid}`;
  // The shell's process group is the shell and every job it started (bash has no job control
  // here): they all get the signal.
  if (ownGroup && signal !== 'EXIT')
    for (const job of rt.jobs.running())
      if (sendToJob(job, signal) === 'fatal') job.cancel(`SIG${signal}` as NodeJS.Signals, 'kill');
  if (ownGroup || target === String(rt.pid)) return signalShell(ctx, signal, ownGroup);
  const spec = target.startsWith('-') ? target.slice(1) : target;
  // Without job control a job is no process group of its own (bash: "No such process").
  if (/^-[0-9]+$/.test(target) && rt.jobs.find(spec)) return ctx.fail(`(${target}) - No such process`);
  // %N is one of this shell's jobs; a process id may be any job's of the run.
  const job = spec.startsWith('%') ? ctx.r.sh.jobs.find(spec) : rt.jobs.find(spec);
  if (job) {
    if (job.status !== null) return ctx.fail(`(${target}) - No such process`);
    if (signal !== 'EXIT' && sendToJob(job, signal) === 'fatal')
      job.cancel(`SIG${signal}` as NodeJS.Signals, 'kill');
    return 0;
  }
  if (target.startsWith('%')) return ctx.fail(`${target}: no such job`);
  if (!/^-?[0-9]+$/.test(target)) return ctx.fail(`${target}: arguments must be process or job IDs`);
  // A process the caller vouches for (a job of the MCP session, started by an earlier call), or its
  // process group (each stage leads its own).
  if (rt.vouched?.(Number(spec))) return signalVouched(ctx, Number(target), signal);
  // Only the run's own processes are signalled: a pid that is none of its jobs may be anyone's.
  return ctx.fail(
    `(${target}) - not a process this text started; safe-run signals only the text's own jobs and shell`,
  );
}

function signalVouched(ctx: BuiltinContext, target: number, signal: string): number | Promise<number> {
  try {
    process.kill(target, signal === 'EXIT' ? 0 : `SIG${signal}`);
    return 0;
  } catch {
    return ctx.fail(`(${target}) - No such process`);
  }
}
