// Runs one command once and measures it: wall time by the clock of this process, CPU time and peak
// RSS from GNU time (wait4's rusage, so they include the command's own children, e.g. the stages of
// a safe-run pipeline). Without GNU time, peak RSS comes from polling VmHWM and CPU is unknown.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';
const FORMAT = 'BENCH %e %M %U %S';
// Kept of what a command prints, to check a result and to show why a run failed.
const KEEP_STDOUT = 1024 * 1024;
const KEEP_STDERR = 4096;

export function hasGnuTime() {
  const probe = spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' });
  return probe.status === 0 && /^\d+\s*$/.test(probe.stderr);
}

// stdout/stderr of the command: 'capture' keeps (the start of) what it prints, 'null' is /dev/null.
function stdioFor(mode, devNull) {
  return mode === 'capture' ? 'pipe' : devNull;
}

// Keeps the first `limit` bytes of a stream, or with fromEnd the last ones (at chunk granularity).
function keep(stream, limit, fromEnd) {
  const chunks = [];
  let length = 0;
  stream?.on('data', (chunk) => {
    if (!fromEnd && length >= limit) return;
    chunks.push(chunk);
    length += chunk.length;
    while (fromEnd && chunks.length > 1 && length - chunks[0].length >= limit)
      length -= chunks.shift().length;
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

function readHighWaterMark(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function parseTimeFile(file) {
  const text = fs.readFileSync(file, 'utf8');
  const line = text.split('\n').find((l) => l.startsWith('BENCH '));
  if (!line) return { rssKiB: null, cpuMs: null };
  const [, , rss, user, sys] = line.split(' ');
  return { rssKiB: Number(rss), cpuMs: Math.round((Number(user) + Number(sys)) * 1000) };
}

// command: { argv, env, cwd, stdout: 'capture'|'null', stderr: 'capture'|'null' }
// options: { useTime: run under GNU time for CPU and RSS, tmpDir }
// Resolves to { wallMs, cpuMs, rssKiB, code, signal, stdout, stderr }; never rejects.
export function measureOnce(command, { useTime, tmpDir }) {
  const devNull = fs.openSync('/dev/null', 'r+');
  const timeFile = path.join(tmpDir, 'time.txt');
  const argv = useTime ? [GNU_TIME, '-f', FORMAT, '-o', timeFile, ...command.argv] : command.argv;
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      env: command.env,
      cwd: command.cwd,
      stdio: [devNull, stdioFor(command.stdout, devNull), stdioFor(command.stderr, devNull)],
    });
    const stdout = keep(child.stdout, KEEP_STDOUT, false);
    const stderr = keep(child.stderr, KEEP_STDERR, true);
    let polledKiB = null;
    const poller =
      useTime || !child.pid
        ? null
        : setInterval(() => {
            polledKiB = readHighWaterMark(child.pid) ?? polledKiB;
          }, 2);
    let wallMs = null;
    child.on('exit', () => {
      wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (poller) clearInterval(poller);
    });
    let done = false;
    const finish = (code, signal, error) => {
      if (done) return;
      done = true;
      fs.closeSync(devNull);
      const usage = useTime && !error ? parseTimeFile(timeFile) : { rssKiB: polledKiB, cpuMs: null };
      resolve({
        wallMs,
        ...usage,
        code,
        signal,
        stdout: stdout(),
        stderr: error ? String(error) : stderr(),
      });
    };
    child.on('error', (error) => finish(null, null, error));
    child.on('close', (code, signal) => finish(code, signal, null));
  });
}
