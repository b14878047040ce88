import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

// Node cannot ask the kernel to kill its children when it dies (PR_SET_PDEATHSIG). This sh does it
// instead: it reads "g PGID", "u PGID", "m NAME=value", "f PATH" and "r PATH" lines from a pipe that
// only Node holds, and when that pipe reaches EOF without a "q" line first (Node died), it kills every
// listed group with SIGKILL, removes every listed file (a staged output, a report's temporary file:
// "f" adds, "r" forgets; the path travels as octal escapes, so any byte survives the line protocol
// and printf's format has no % in it), and then every process carrying the marker, scanning again
// until two scans 50 ms apart find nobody (a process caught mid-exec reads an empty environ for a
// moment), at most 50 scans (a process stuck in the kernel cannot be waited for). Written for dash, whose kill takes `kill -9 -PGID` but
// not `--` or `-s KILL -PGID`.
// Given a mkfifo program, a directory and a count ($1-$3), it first makes the run's FIFOs there and
// says "made" or "failed" on its stdout, then lets go of that stdout: safe-run starts one process
// fewer, and waits for the answer only when it needs the pipes, by which time the sh is long up.
const SCRIPT = `if [ $# -eq 3 ]; then
  mk=$1 dir=$2 n=$3 i=0
  shift 3
  while [ $i -lt $n ]; do set -- "$@" "$dir/p$i"; i=$((i + 1)); done
  if "$mk" -m 600 "$@" 2>/dev/null; then echo made; else echo failed; fi
fi
exec >/dev/null
groups= entry= files=
while read -r cmd arg; do
  case $cmd in
    f) files="$files $arg" ;;
    r) kept=; for f in $files; do [ "$f" = "$arg" ] || kept="$kept $f"; done; files=$kept ;;
    g) case $arg in ''|*[!0-9]*) ;; *) [ "$arg" -gt 1 ] && groups="$groups $arg" ;; esac ;;
    u) kept=; for g in $groups; do [ "$g" = "$arg" ] || kept="$kept $g"; done; groups=$kept ;;
    m) entry=$arg ;;
    q) exit 0 ;;
  esac
done
for g in $groups; do kill -9 -$g 2>/dev/null; done
for f in $files; do p=$(printf "\${f}x"); rm -f -- "\${p%x}"; done
[ -n "$entry" ] || exit 0
round=0 empty=0
while [ $round -lt 50 ]; do
  pids=
  for f in $(grep -lszxF -e "$entry" /proc/[0-9]*/environ); do
    p=\${f#/proc/}; p=\${p%/environ}
    [ "$p" = $$ ] || pids="$pids $p"
  done
  if [ -n "$pids" ]; then
    empty=0
    kill -9 $pids 2>/dev/null
  else
    empty=$((empty + 1))
    [ $empty -lt 2 ] || exit 0
    sleep 0.05
  fi
  round=$((round + 1))
done`;

// FIFOs for the watchdog to make: dir/p0 .. dir/p(count-1), with this mkfifo (an absolute path).
export interface FifoRequest {
  mkfifo: string;
  dir: string;
  count: number;
}

// One watchdog process: the pid it got, and the pipe into it.
export interface Guard {
  pid: number | null;
  // Its stdout, where the first one answers whether it made the FIFOs; null for the others.
  answer: Promise<boolean>;
  send(line: string): void;
  end(): void;
}

// Spawns the sh. `onDeath` hears of its exit unless end() came first; `fifos` is for the first one.
export function spawnGuard(onDeath: (guard: Guard, how: string) => void, fifos: FifoRequest | null): Guard {
  const args = fifos ? [fifos.mkfifo, fifos.dir, String(fifos.count)] : [];
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'safe-run-watchdog', ...args], {
    argv0: 'safe-run-watchdog',
    detached: true,
    stdio: ['pipe', fifos ? 'pipe' : 'ignore', 'ignore'],
    cwd: '/',
    // Its own environment has no marker, so its sweep never finds itself or its grep.
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
  });
  const input = child.stdin as Socket;
  child.on('error', () => {});
  input.on('error', () => {});
  child.unref();
  input.unref();
  let alive = child.pid !== undefined;
  const guard: Guard = {
    pid: child.pid ?? null,
    answer: fifos && alive ? answer(child.stdout as Socket) : Promise.resolve(false),
    // Writes to a pipe with an empty queue complete synchronously in libuv, so a line written just
    // before Node is SIGKILLed has reached the watchdog.
    send(line: string) {
      if (alive) input.write(`${line}\n`);
    },
    end() {
      alive = false;
      input.end();
    },
  };
  child.on('exit', (code, signal) => {
    if (!alive) return;
    alive = false;
    onDeath(guard, signal ? `was killed by ${signal}` : `exited with ${code}`);
  });
  return guard;
}

// The sh's one line on its stdout; anything else (it died, the line never came) is "not made".
// It stays referenced until then: a run waiting for it must keep Node alive.
function answer(output: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    let text = '';
    output.setEncoding('latin1');
    output.on('data', (chunk: string) => {
      text += chunk;
    });
    output.on('error', () => resolve(false));
    output.on('close', () => resolve(text === 'made\n'));
  });
}
