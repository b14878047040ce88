import os from 'node:os';
import type { Bytes } from '../../syntax/source.js';
import { ExitSignal } from '../signals.js';
import type { BuiltinContext } from './context.js';

const SIGNALS = os.constants.signals as Record<string, number>;

// A signal as trap and kill take it: a name with or without SIG, a number, or EXIT/0 and the shell's
// own pseudo-signals. Null when it is none of them.
export function signalName(text: Bytes): string | null {
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

// trap [-lp] [[action] signal...]: the actions the shell runs; EXIT and ERR are run by the runner.
export async function trap(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  const args = ctx.args[0] === '--' ? ctx.args.slice(1) : ctx.args;
  if (args.length === 0 || args[0] === '-p') {
    const wanted = args.slice(1).map(signalName);
    for (const [signal, action] of sh.traps) {
      if (wanted.length > 0 && !wanted.includes(signal)) continue;
      await ctx.out(
        `trap -- '${action.replaceAll("'", `'\\''`)}' ${signal === 'EXIT' || signal === 'ERR' || signal === 'DEBUG' || signal === 'RETURN' ? signal : `SIG${signal}`}\n`,
      );
    }
    return ctx.finish(0);
  }
  if (args[0] === '-l') return ctx.fail('-l is not supported here', 2);
  const reset = args.length === 1 || args[0] === '-' || /^[0-9]+$/.test(args[0]!);
  const action = reset ? null : args[0]!;
  let status = 0;
  for (const spec of reset && args[0] !== '-' ? args : args.slice(1)) {
    const signal = signalName(spec);
    if (signal === null) {
      status = await ctx.fail(`${spec}: invalid signal specification`);
      continue;
    }
    if (signal === 'DEBUG' || signal === 'RETURN')
      return ctx.fail(`${signal} traps are not supported here`, 2);
    if (action === null) sh.traps.delete(signal);
    else sh.traps.set(signal, action);
  }
  return status;
}

// wait [-n] [pid|%job...]: the jobs' ends; the status of the last one named (0 for all).
export async function wait(ctx: BuiltinContext): Promise<number> {
  const { jobs } = ctx.r.rt;
  const args = ctx.args.filter((arg) => arg !== '-n' && arg !== '-f');
  if (ctx.args.includes('-n')) {
    const running = jobs.running();
    if (running.length === 0) return 127;
    return Promise.race(running.map((job) => job.done));
  }
  if (args.length === 0) {
    for (const job of jobs.list) await job.done;
    return 0;
  }
  let status = 0;
  for (const spec of args) {
    const job = jobs.find(spec);
    if (!job) {
      status = await ctx.fail(
        `${/^[0-9]+$/.test(spec) ? `pid ${spec} is not a child of this shell` : `${spec}: no such job`}`,
        127,
      );
      continue;
    }
    status = await job.done;
  }
  return status;
}

// kill [-s sig | -sig] pid|%job...: a job is stopped as safe-run stops its commands; the shell's own
// pid ends the shell; other processes get the signal.
export async function kill(ctx: BuiltinContext): Promise<number> {
  let signal = 'TERM';
  let args = ctx.args;
  if (args[0] === '-l' || args[0] === '-L') return ctx.fail('-l is not supported here', 2);
  if (args[0] === '-s' || args[0] === '-n') {
    const given = args[1] === undefined ? null : signalName(args[1]);
    if (given === null) return ctx.fail(`${args[1] ?? ''}: invalid signal specification`);
    signal = given;
    args = args.slice(2);
  } else if (args[0]?.startsWith('-') && args[0] !== '--') {
    const given = signalName(args[0].slice(1));
    if (given === null) return ctx.fail(`${args[0].slice(1)}: invalid signal specification`);
    signal = given;
    args = args.slice(1);
  }
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0)
    return ctx.fail(
      'usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]',
      2,
    );
  let status = 0;
  for (const target of args) status = Math.max(status, await killOne(ctx, target, signal));
  return status;
}

async function killOne(ctx: BuiltinContext, target: Bytes, signal: string): Promise<number> {
  const { rt } = ctx.r;
  const job = target.startsWith('%') ? rt.jobs.find(target) : rt.jobs.find(target);
  if (job) {
    job.cancel(`SIG${signal}` as NodeJS.Signals);
    return 0;
  }
  if (target.startsWith('%')) return ctx.fail(`${target}: no such job`);
  if (!/^-?[0-9]+$/.test(target)) return ctx.fail(`${target}: arguments must be process or job IDs`);
  const pid = Number(target);
  if (pid === rt.pid) throw new ExitSignal(128 + (SIGNALS[`SIG${signal}`] ?? 15), 'signal');
  if (pid <= 0) return ctx.fail(`(${target}) - signalling a process group by number is not supported here`);
  try {
    process.kill(pid, `SIG${signal}` as NodeJS.Signals);
    return 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return ctx.fail(`(${pid}) - ${code === 'EPERM' ? 'Operation not permitted' : 'No such process'}`);
  }
}
