import type { Bytes } from '../../syntax/source.js';
import type { Job } from '../jobs-table.js';
import type { BuiltinContext } from './context.js';

const USAGE = 'disown [-h] [-ar] [jobspec ... | pid ...]';

// disown [-h] [-ar] [jobspec ... | pid ...]: the jobs named (the current one without any; all with
// -a, the running ones with -r) leave the shell's table, as bash's do: `jobs`, `wait` and %N no
// longer know them (`wait $!` then says the pid is not a child). -h only marks a job to be spared a
// SIGHUP the shell gets, which a -c text's shell never passes on: nothing changes. A job that leaves
// the table still runs, and is stopped at the text's end as every job still running is.
export async function disown(ctx: BuiltinContext): Promise<number> {
  const flags = new Set<string>();
  let k = 0;
  for (; k < ctx.args.length && /^-./.test(ctx.args[k]!); k++) {
    const arg = ctx.args[k]!;
    if (arg === '--') {
      k++;
      break;
    }
    for (const flag of arg.slice(1)) {
      if (!'ahr'.includes(flag)) return ctx.usage(USAGE, `-${flag}: invalid option`);
      flags.add(flag);
    }
  }
  const { jobs } = ctx.sh;
  const names = ctx.args.slice(k);
  const keep = flags.has('h');
  if (names.length === 0 && (flags.has('a') || flags.has('r'))) {
    const known = jobs.list.filter((job) => !job.reported);
    if (!keep) for (const job of known) if (!flags.has('r') || job.status === null) jobs.remove(job);
    return 0;
  }
  let status = 0;
  for (const name of names.length === 0 ? [null] : names) {
    const job = findJob(ctx, name);
    if (!job) status = await ctx.fail(`${name ?? 'current'}: no such job`);
    else if (!keep) jobs.remove(job);
  }
  return status;
}

// A pid of one of the shell's jobs, or a job spec (%N, %%, %+, %-; a word without % the same way).
function findJob(ctx: BuiltinContext, name: Bytes | null): Job | undefined {
  const { jobs } = ctx.sh;
  if (name === null) return jobs.find('%+');
  if (/^[0-9]+$/.test(name)) return jobs.find(name);
  return jobs.find(name.startsWith('%') ? name : `%${name}`);
}
