// What a sample of the procs section runs inside: many idle processes of the same user, or a pid
// churn loop, started before the sample and gone after it, so that nothing is left behind.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

// `sleep 600` processes of this user, started before a sample and killed right after it, so that the
// sample runs on a machine with that many more processes and none is left behind.
export async function withIdleProcesses(count, run) {
  const sleepers = [];
  try {
    for (let i = 0; i < count; i++) {
      const child = spawn('sleep', ['600'], { stdio: 'ignore', env: { PATH: process.env.PATH } });
      child.on('error', () => {});
      sleepers.push(child);
    }
    // Started means exec'd: a pid whose comm is still "node" is a fork on its way.
    const deadline = Date.now() + 60_000;
    const started = () => sleepers.every((c) => c.pid && commandOf(c.pid) === 'sleep');
    while (!started() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return await run();
  } finally {
    const gone = sleepers.map((c) =>
      c.exitCode !== null || c.signalCode !== null ? null : new Promise((resolve) => c.once('exit', resolve)),
    );
    for (const child of sleepers) child.kill('SIGKILL');
    await Promise.all(gone);
  }
}

// A process-id churn loop, as ../shared/tools/under-load runs one (each `/bin/true` a new process:
// hundreds to thousands a second), running for the sample and killed right after it, with its group.
export async function withPidChurn(run) {
  const churn = spawn('/bin/sh', ['-c', 'while :; do /bin/true; done'], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH },
  });
  churn.on('error', () => {});
  const gone = new Promise((resolve) => churn.once('exit', resolve));
  try {
    // Churning means pids moving: wait until a hundred have been handed out (or 5 s).
    const first = lastPid();
    const deadline = Date.now() + 5000;
    while (lastPid() - first < 100 && lastPid() >= first && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return await run();
  } finally {
    try {
      process.kill(-churn.pid, 'SIGKILL');
    } catch {
      // gone already
    }
    await gone;
  }
}

function lastPid() {
  return Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
}
