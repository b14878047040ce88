import { signalNumber } from '../../policy/signals.js';
import type { AndOr, Compound } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { takeSignals } from './builtins/self-signal.js';
import type { Job } from './jobs-table.js';

const ASYNC_IGNORED = new Set(['INT', 'QUIT']);
// Signals whose default action leaves a process running.
const HARMLESS = new Set(['CHLD', 'URG', 'WINCH', 'CONT']);

// bash without job control sends `kill %N` to the job's own process: the subshell that runs it (or
// the program it became). That subshell runs its trap for the signal once the command it waits for
// has ended (that command's processes get nothing), or at once when it waits in `wait`, which then
// returns 128+n; it does nothing for a signal trapped with ''. Untrapped, it dies of the signal:
// here the job is cancelled ('fatal'; its programs are stopped too, where bash would leave them).
// A job's process has SIGINT and SIGQUIT ignored (bash -c has no job control) unless it traps them.
// Its own traps decide (a copy of the parent's '' ones, changed by its `trap` commands).
export function sendToJob(job: Job, signal: string): 'trapped' | 'ignored' | 'fatal' {
  const action = job.shell ? job.shell.traps.get(signal) : job.ignored.has(signal) ? '' : undefined;
  if (action === '') return 'ignored';
  if (action === undefined) return ASYNC_IGNORED.has(signal) || HARMLESS.has(signal) ? 'ignored' : 'fatal';
  job.deliver(signal);
  return 'trapped';
}

// Runs the traps of the signals sent to the job's shell since its last command, when `r` is that
// shell; $? is kept unless a trap exits. The text's shell takes those its subshells sent it.
export async function runPendingTraps(r: RunnerApi): Promise<void> {
  await takeSignals(r);
  const { job } = r.place;
  if (!job || job.shell !== r.sh) return;
  while (job.pending.size > 0) {
    // In the order of the signals' numbers, as bash runs them.
    const [signal] = byNumber(job.pending);
    job.pending.delete(signal!);
    const action = r.sh.traps.get(signal!);
    if (!action) continue;
    const status = r.sh.status;
    await r.runText(action, { label: 'trap' });
    r.sh.status = status;
  }
}

// A `wait` in the job's shell: resolves with 128+n once a trapped signal is sent to it (null when
// `r` is not a job's shell). `forget` lets it go once the wait ended otherwise.
export function trappedSignal(r: RunnerApi): { status: Promise<number>; forget: () => void } | null {
  const { job } = r.place;
  if (!job || job.shell !== r.sh) return null;
  const first = () => 128 + signalNumber(`SIG${byNumber(job.pending)[0] ?? 'TERM'}`);
  if (job.pending.size > 0) return { status: Promise.resolve(first()), forget: () => {} };
  const { signalled, forget } = job.signalled();
  return { status: signalled.then(first), forget };
}

// The shell ends as the job's process: after a kill by the text, its EXIT trap's commands run, as
// bash's do after the signal (not after a stop of the whole run).
export function lettingExitTrapRun(r: RunnerApi): void {
  const { job } = r.place;
  const stop = job?.cancelled;
  if (job && job.shell === r.sh && stop?.by === 'kill' && stop.signal !== 'SIGKILL') job.exiting = true;
}

function byNumber(signals: ReadonlySet<string>): string[] {
  return [...signals].sort((a, b) => signalNumber(`SIG${a}`) - signalNumber(`SIG${b}`));
}

// `( list )` run by the job's shell as all it does: its subshell is the job's process from now on.
export function adoptSubshell(r: RunnerApi, command: Compound, sub: RunnerApi): void {
  const { job } = r.place;
  if (!job || job.shell !== r.sh || job.adopt !== command || command.kind !== 'subshell') return;
  job.shell = sub.sh;
  const only = command.stmts.length === 1 ? command.stmts[0] : undefined;
  job.adopt = only && !only.background ? loneSubshell(only.body) : null;
}

// A lone `( list )` body: bash runs that subshell in the job's own process.
export function loneSubshell(body: AndOr): Compound | null {
  const { first } = body;
  if (body.rest.length > 0 || first.bang || first.time || first.commands.length !== 1) return null;
  const command = first.commands[0]!;
  return command.kind === 'subshell' ? command : null;
}
