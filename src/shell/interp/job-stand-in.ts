import { spawn } from 'node:child_process';
import { bashPath } from '../bash-path.js';
import type { Job } from './jobs-table.js';

// bash runs `COMMAND &` in a subshell of its own, a process, and $! is its id even when COMMAND is only
// builtins (`true &`, `{ read x; } &`). safe-run runs those inside itself, so a job whose first command
// is not a program is given a stand-in: a process of safe-run's own that lives while the job runs and
// reads nothing but the end of its stdin. $! is its id; wait and kill find the job by it. It runs
// nothing of the text and is never signalled: it ends when the job ends and its stdin closes.
export function giveStandIn(job: Job): void {
  const child = spawn(bashPath(), ['--norc', '--noprofile', '-c', 'read -r _'], {
    cwd: '/',
    env: {},
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  child.unref();
  if (child.pid === undefined) return;
  job.standIn(child.pid);
  void job.done.finally(() => child.stdin.end());
}
