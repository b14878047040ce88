import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { assertMarker, type Marker, markerEntry } from './marker.js';

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

export interface Watchdog {
  // null when the watchdog could not be started (no /bin/sh): the run goes on unguarded. After a
  // restart, the pid of the one on guard now.
  readonly pid: number | null;
  // Whether it made the FIFOs it was asked for (false also when it was asked for none, or never started).
  readonly fifosMade: Promise<boolean>;
  watchGroup(pgid: number): void;
  // For a group known to be empty: once no process is left in it, its id may be reused by some
  // unrelated group, which the watchdog must then not kill.
  unwatchGroup(pgid: number): void;
  // A file to remove if safe-run dies before it says otherwise (created after this call returns).
  watchFile(file: string): void;
  // The file was published, removed or kept on purpose: leave it alone.
  forgetFile(file: string): void;
  // Normal end: the watchdog exits without killing anything.
  disarm(): void;
  // What happened to the watchdog itself during the run (killed, restarted), for the report.
  readonly problems: readonly string[];
}

// A stage runs as the same user and can find and kill the watchdog (it is an `sh` in its own session,
// which no unprivileged process can hide); then a SIGKILL of safe-run would leave the stages alive.
// Its death while armed is seen as the child's 'exit' and it is started again with everything it was
// told, at most this many times (a stage that kills it in a loop is told about, not raced for ever).
const MAX_RESTARTS = 10;

interface Guard {
  pid: number | null;
  // Its stdout, where the first one answers whether it made the FIFOs; null for the others.
  answer: Promise<boolean>;
  send(line: string): void;
  end(): void;
}

// Starts the watchdog for one run. It lives in its own process group and session so that whatever
// kills safe-run does not kill it too, holds no descriptor but its stdin, sits in / so it keeps no
// directory busy, and does not keep Node's event loop alive. Without a marker it only guards files
// and the groups it is told about (the CLI's own guard for --output, --report and checkers).
export function startWatchdog(marker: Marker | null, fifos: FifoRequest | null = null): Watchdog {
  if (marker) assertMarker(marker);
  const groups = new Set<number>();
  const files = new Set<string>();
  const problems: string[] = [];
  let armed = true;
  let restarts = 0;
  // Everything the watchdog must know, in the order a fresh one needs it.
  const state = () => [
    ...(marker ? [`m ${markerEntry(marker)}`] : []),
    ...[...groups].map((pgid) => `g ${pgid}`),
    ...[...files].map((file) => `f ${octalEscaped(file)}`),
  ];
  const onDeath = (dead: Guard, how: string) => {
    if (!armed || dead !== guard) return;
    if (restarts >= MAX_RESTARTS) {
      problems.push(
        `the watchdog (pid ${dead.pid}) ${how} while the run went on, ${MAX_RESTARTS + 1} times: not restarted again; if safe-run is killed now, its stages may outlive it`,
      );
      guard = null;
      return;
    }
    restarts += 1;
    guard = spawnGuard(onDeath, null);
    for (const line of state()) guard.send(line);
    problems.push(
      `the watchdog (pid ${dead.pid}) ${how} while the run went on (a stage may have killed it); restarted as pid ${guard.pid}`,
    );
  };
  // Only the first one makes the run's FIFOs: a restarted one comes after they were made.
  let guard: Guard | null = spawnGuard(onDeath, fifos);
  const fifosMade = guard.answer;
  for (const line of state()) guard.send(line);
  if (guard.pid === null) armed = false;
  const send = (line: string) => {
    if (armed) guard?.send(line);
  };
  return {
    get pid() {
      return guard?.pid ?? null;
    },
    problems,
    fifosMade,
    watchGroup(pgid: number) {
      assertGroupId(pgid);
      groups.add(pgid);
      send(`g ${pgid}`);
    },
    unwatchGroup(pgid: number) {
      assertGroupId(pgid);
      groups.delete(pgid);
      send(`u ${pgid}`);
    },
    watchFile(file: string) {
      files.add(file);
      send(`f ${octalEscaped(file)}`);
    },
    forgetFile(file: string) {
      files.delete(file);
      send(`r ${octalEscaped(file)}`);
    },
    disarm() {
      send('q');
      armed = false;
      guard?.end();
    },
  };
}

function spawnGuard(onDeath: (guard: Guard, how: string) => void, fifos: FifoRequest | null): Guard {
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

function assertGroupId(pgid: number): void {
  // The watchdog's `kill -9 -1` would reach every process we may signal.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`${pgid} is not a process group id`);
}

// Every byte as \NNN: no space, newline, backslash or % reaches the shell's read or printf as itself.
function octalEscaped(file: string): string {
  return [...Buffer.from(file)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}
