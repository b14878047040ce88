import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';

// By absolute path: the stages' PATH (even an empty one) is the user's business, not safe-run's.
// Looked for when first needed, on this machine (not when the module loads: in the start-up snapshot,
// that was the build's).
let mkfifo: string | null = null;
export function mkfifoPath(): string {
  mkfifo ??= ['/usr/bin/mkfifo', '/bin/mkfifo'].find((file) => fs.existsSync(file)) ?? 'mkfifo';
  return mkfifo;
}

// Node cannot ask the kernel to kill its children when it dies (PR_SET_PDEATHSIG). This sh does it
// instead. It reads lines from a pipe that only Node holds:
//   g PGID:START      watch a stage's process group and session (both ids are its leader's pid), the
//                     leader started at START (clock ticks since boot, from /proc/PGID/stat; - unknown)
//   u PGID:START      stop watching it
//   m ENTRY / n ENTRY watch / stop watching a marker (NAME=value in the environment of a run's processes)
//   f PATH / r PATH   a file to remove / to leave alone
//   d DIR             remove DIR if Node dies before it says "x DIR" or "k DIR" (sent before DIR is made);
//                     a process holding one of the FIFOs DIR/p0, DIR/p1... (the run's pipes) is killed
//   p DIR N           make the FIFOs DIR/p0 .. DIR/p(N-1), answer "made" or "failed" on stdout
//   x DIR             remove DIR now (after the FIFOs it was asked for there), and forget it
//   k DIR             forget DIR without removing it (the name was someone else's)
//   c DIR / C DIR     a run's cgroup: kill everything in it if Node dies / forget it
//   P DIR             move itself into cgroup DIR (Node's own, where it already is): a move that changes
//                     nothing but waits the kernel's grace period early (run-cgroup.ts, cgroupToPrime)
//   q                 Node ends normally: exit without doing anything
// When the pipe reaches EOF without a "q" (Node died), it kills every watched group with SIGKILL (but
// a group whose id now names a process with another start time: the id was handed out again, so the
// group it named is gone), and every process in a watched cgroup (cgroup.kill), removes every listed
// file and directory, and then kills every process that carries a watched marker, is in a watched
// group's session (left the group, not the session) or holds one of the run's FIFOs (found by the
// link text of /proc/PID/fd/N, "DIR/pN (deleted)": the directory is private and its name random, so
// only a process that inherited the pipe from a stage holds it), scanning again until two scans 50 ms
// apart find nobody (a process caught mid-exec reads an empty environ for a moment), at most 50 scans
// (a process stuck in the kernel cannot be waited for). A session member is found by its stat line:
// the fields after the last ")" (a command name can hold anything, those fields cannot), state not
// Z or X (a zombie cannot be killed, and here PID 1 never reaps them).
// Paths travel with every byte outside a safe set as an octal escape (watchdog-lease.ts), so any byte
// survives the line protocol, printf's format has no % in it, and a path with no escape in it is used
// as it is (dec: no printf, which dash would run in a forked subshell). Markers are plain words (src/teardown/marker.ts). SIGPIPE is ignored: an answer that meets a
// dead Node must not kill the one process that is to clean up after it. Written for dash, whose kill
// takes `kill -9 -PGID` but not `--` or `-s KILL -PGID`. $1 is the mkfifo program (an absolute path);
// each further argument is a watch line (f, g, m, d or c) taken before the first read: a watchdog
// started again while the run goes on knows everything from its first instruction, so a SIGKILL of
// safe-run at any moment of the restart (even before spawn() returns to write a line) leaves nothing.
const SCRIPT = `trap '' PIPE
mk=$1; shift
groups= entries= files= dirs= cgroups=
drop() { kept=; for w in $1; do [ "$w" = "$2" ] || kept="$kept $w"; done; }
dec() { case $1 in *\\\\*) p=$(printf "$1x"); p=\${p%x} ;; *) p=$1 ;; esac; }
watch() {
  case $1 in
    f) files="$files $2" ;;
    g) case \${2%:*} in ''|*[!0-9]*) ;; *) [ "\${2%:*}" -gt 1 ] && groups="$groups $2" ;; esac ;;
    m) entries="$entries $2" ;;
    d) dirs="$dirs $2" ;;
    c) cgroups="$cgroups $2" ;;
  esac
}
for w in "$@"; do watch "\${w%% *}" "\${w#* }"; done
while read -r cmd arg; do
  case $cmd in
    r) drop "$files" "$arg"; files=$kept ;;
    u) drop "$groups" "$arg"; groups=$kept ;;
    n) drop "$entries" "$arg"; entries=$kept ;;
    C) drop "$cgroups" "$arg"; cgroups=$kept ;;
    p) d=\${arg% *} n=\${arg##* }
      case $n in ''|*[!0-9]*) echo failed; continue ;; esac
      dec "$d"
      set --; i=0
      while [ $i -lt "$n" ]; do set -- "$@" "$p/p$i"; i=$((i + 1)); done
      if "$mk" -m 600 "$@" 2>/dev/null; then echo made; else echo failed; fi ;;
    x) drop "$dirs" "$arg"; dirs=$kept
      dec "$arg"
      [ ! -e "$p" ] || rm -rf -- "$p" ;;
    k) drop "$dirs" "$arg"; dirs=$kept ;;
    P) dec "$arg"; { echo 0 > "$p/cgroup.procs"; } 2>/dev/null ;;
    q) exit 0 ;;
    *) watch "$cmd" "$arg" ;;
  esac
done
sids=
for g in $groups; do
  pg=\${g%:*} st=\${g#*:}
  if [ "$st" != - ] && read -r line 2>/dev/null < /proc/$pg/stat; then
    set -- \${line##*) }
    [ "\${20}" = "$st" ] || continue
  fi
  kill -9 -$pg 2>/dev/null
  sids="$sids\${sids:+|}$pg"
done
cgkill() {
  for c in $cgroups; do
    dec "$c"
    if [ -e "$p/cgroup.kill" ]; then echo 1 > "$p/cgroup.kill"
    elif [ -e "$p/cgroup.procs" ]; then kill -9 $(cat "$p/cgroup.procs") 2>/dev/null
    fi
    rmdir -- "$p" 2>/dev/null
  done
}
cgkill
for f in $files; do dec "$f"; rm -f -- "$p"; done
pipes=
for d in $dirs; do
  dec "$d"
  rm -rf -- "$p"
  case $p in *[*?[\\\\]*) ;; *) pipes="$pipes $d" ;; esac
done
[ -n "$entries$sids$pipes$cgroups" ] || exit 0
set --; for e in $entries; do set -- "$@" -e "$e"; done
round=0 empty=0
while [ $round -lt 50 ]; do
  found=
  [ -z "$entries" ] || found=$(grep -lszxF "$@" /proc/[0-9]*/environ)
  [ -z "$sids" ] || found="$found $(grep -lsE "[)] [A-WYa-z] [0-9]+ [0-9]+ ($sids) [^)]*$" /proc/[0-9]*/stat)"
  for d in $pipes; do
    dec "$d"
    found="$found $(find /proc/[0-9]*/fd -mindepth 1 -maxdepth 1 -lname "$p/p*" 2>/dev/null)"
  done
  pids=
  for f in $found; do
    p=\${f#/proc/}; p=\${p%%/*}
    [ "$p" = $$ ] || pids="$pids $p"
  done
  cgkill
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

// One watchdog process: the pid it got, and the pipes into and out of it.
export interface Guard {
  pid: number | null;
  send(line: string): void;
  // Sends a request that the sh answers with one line; true when that line is "made". False when it
  // says otherwise, or dies or is ended before it answers.
  ask(line: string): Promise<boolean>;
  end(): void;
}

// Spawns the sh, watching `known` (lines such as "g 123:4567") from the start. `onDeath` hears of its
// exit unless end() came first.
export function spawnGuard(
  onDeath: (guard: Guard, how: string) => void,
  known: readonly string[] = [],
): Guard {
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'safe-run-watchdog', mkfifoPath(), ...known], {
    argv0: 'safe-run-watchdog',
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
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
  const answers = new Answers(child.stdout as Socket);
  const guard: Guard = {
    pid: child.pid ?? null,
    // Writes to a pipe with an empty queue complete synchronously in libuv, so a line written just
    // before Node is SIGKILLed has reached the watchdog.
    send(line: string) {
      if (alive) input.write(`${line}\n`);
    },
    ask(line: string) {
      if (!alive) return Promise.resolve(false);
      const answer = answers.next();
      input.write(`${line}\n`);
      return answer;
    },
    end() {
      alive = false;
      input.end();
      answers.close();
    },
  };
  // Its answers are settled by its stdout's end, which comes after every line it wrote was read.
  child.on('exit', (code, signal) => {
    if (!alive) return;
    alive = false;
    onDeath(guard, signal ? `was killed by ${signal}` : `exited with ${code}`);
  });
  return guard;
}

// The sh's answers, one line per request, in the order asked. Its stdout keeps Node alive only while
// an answer is awaited: a run waiting for its FIFOs must not see Node exit under it, and an idle
// watchdog must not keep Node from exiting.
class Answers {
  private readonly waiting: ((made: boolean) => void)[] = [];
  private text = '';

  constructor(private readonly output: Socket) {
    output.setEncoding('latin1');
    output.unref();
    output.on('data', (chunk: string) => this.take(chunk));
    output.on('error', () => this.close());
    output.on('close', () => this.close());
  }

  next(): Promise<boolean> {
    if (this.waiting.length === 0) this.output.ref();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  // Everything still awaited is "not made"; the stream is let go.
  close(): void {
    for (const resolve of this.waiting.splice(0)) resolve(false);
    this.output.destroy();
  }

  private take(chunk: string): void {
    this.text += chunk;
    for (let end = this.text.indexOf('\n'); end !== -1; end = this.text.indexOf('\n')) {
      const line = this.text.slice(0, end);
      this.text = this.text.slice(end + 1);
      this.waiting.shift()?.(line === 'made');
      if (this.waiting.length === 0) this.output.unref();
    }
  }
}
