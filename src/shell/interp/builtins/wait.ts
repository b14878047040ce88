import { VarError } from '../../expand/vars.js';
import { isName } from '../../syntax/scanner.js';
import type { Bytes } from '../../syntax/source.js';
import { assignTarget } from '../assign-named.js';
import { trappedSignal } from '../job-signals.js';
import type { Jobs } from '../jobs-table.js';
import type { BuiltinContext } from './context.js';

const USAGE = 'wait: usage: wait [-fn] [-p var] [id ...]';

interface WaitOptions {
  any: boolean;
  // -p NAME: the variable that gets the process id of the job waited for (unset first, as in bash).
  name: string | null;
  ids: Bytes[];
}

// wait [-fn] [-p var] [pid|%job...]: the jobs' ends; the status of the last one named (0 for all). A
// job waited for is forgotten, as bash forgets it (a later `wait %N` finds no such job; its pid still
// answers).
export async function wait(ctx: BuiltinContext): Promise<number> {
  const options = await waitOptions(ctx);
  if (typeof options === 'number') return options;
  // In a job's shell, a trapped signal sent to it ends the wait (its trap runs next).
  const signal = trappedSignal(ctx.r);
  if (!signal) {
    const status = await waitForJobs(ctx, options, { cut: false });
    if (!ctx.r.place.job && !options.any) ctx.sh.jobs.forgetEnded();
    return status;
  }
  const waited = { cut: false };
  const status = await Promise.race([
    waitForJobs(ctx, options, waited),
    signal.status.then((interrupted) => {
      waited.cut = true;
      return interrupted;
    }),
  ]);
  signal.forget();
  return status;
}

// Its options as bash's getopt takes them (-np v, -pv); a status when they are wrong, or -p's name
// is no name or cannot be unset.
async function waitOptions(ctx: BuiltinContext): Promise<WaitOptions | number> {
  const options: WaitOptions = { any: false, name: null, ids: [] };
  let k = 0;
  for (; k < ctx.args.length; k++) {
    const arg = ctx.args[k]!;
    if (arg === '--') {
      k++;
      break;
    }
    if (!/^-./.test(arg)) break;
    for (let i = 1; i < arg.length; i++) {
      const c = arg[i]!;
      if (c === 'n') options.any = true;
      else if (c === 'p') {
        const name = i + 1 < arg.length ? arg.slice(i + 1) : ctx.args[++k];
        if (name === undefined) return ctx.fail(`-p: option requires an argument\n${USAGE}`, 2);
        options.name = name;
        break;
      } else if (c !== 'f') return ctx.fail(`-${c}: invalid option\n${USAGE}`, 2);
    }
  }
  options.ids = ctx.args.slice(k);
  if (options.name === null) return options;
  // An array's element (`a[1]`) is taken too, and never unset (bash unsets a variable of that name).
  if (isElement(options.name)) return options;
  if (!isName(options.name)) return ctx.fail(`\`${options.name}': not a valid identifier`);
  if (!ctx.sh.vars.unset(options.name)) return ctx.fail(`${options.name}: cannot unset: readonly variable`);
  return options;
}

function isElement(name: string): boolean {
  const open = name.indexOf('[');
  return open > 0 && isName(name.slice(0, open)) && name.endsWith(']') && open < name.length - 2;
}

// The waits themselves; once `waited.cut`, nothing more is marked as told.
async function waitForJobs(
  ctx: BuiltinContext,
  options: WaitOptions,
  waited: { cut: boolean },
): Promise<number> {
  const { jobs } = ctx.r.sh;
  // (A pid as it was named; a job's by its $!.)
  // (A bad subscript is said as an assignment's error, and the wait's status stands.)
  const told = async (pid: number | null) => {
    if (options.name === null) return;
    if (pid === null) {
      if (!isElement(options.name)) ctx.sh.vars.unset(options.name);
      return;
    }
    try {
      assignTarget(ctx.r, options.name, String(pid));
    } catch (error) {
      if (!(error instanceof VarError)) throw error;
      await ctx.r.error(error.message);
    }
  };
  if (options.any) return waitAny(jobs, waited, told);
  if (options.ids.length === 0) {
    for (const job of [...jobs.list]) {
      await job.done;
      if (waited.cut) return 0;
      job.reported = true;
    }
    for (const job of jobs.list) job.discarded = true;
    jobs.discardSaved();
    return 0;
  }
  let status = 0;
  for (const spec of options.ids) {
    if (!/^(%.*|[0-9]+)$/.test(spec)) {
      status = await ctx.fail(`\`${spec}': not a pid or valid job spec`);
      continue;
    }
    const job = jobs.find(spec);
    const saved = /^[0-9]+$/.test(spec) ? jobs.savedStatus(Number(spec)) : undefined;
    if (!job && saved !== undefined) {
      status = saved;
      await told(Number(spec));
      continue;
    }
    if (!job) {
      await told(null);
      status = await ctx.fail(
        `${/^[0-9]+$/.test(spec) ? `pid ${spec} is not a child of this shell` : `${spec}: no such job`}`,
        127,
      );
      continue;
    }
    status = await job.done;
    if (waited.cut) return status;
    job.reported = true;
    await told(/^[0-9]+$/.test(spec) ? Number(spec) : job.pid);
  }
  return status;
}

// wait -n: the first job to end, or one that ended unseen.
async function waitAny(
  jobs: Jobs,
  waited: { cut: boolean },
  told: (pid: number | null) => Promise<void>,
): Promise<number> {
  // A job that ended since the shell last looked (no program ran since: `false & wait -n`) is
  // taken first, as bash finds it still running or ended unseen.
  const unseen = jobs.list.find((job) => job.status !== null && !job.reported && !job.discarded);
  const running = jobs.running().filter((job) => !job.reported);
  if (!unseen && running.length === 0) return 127;
  const first = unseen ?? (await Promise.race(running.map((job) => job.done.then(() => job))));
  first.reported = !waited.cut;
  await told(first.pid);
  return first.status ?? 0;
}
