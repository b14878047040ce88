import type { BlockedProcess, PipePeer } from '../types.js';
import { serverAdvice, terminalAdvice, timerAdvice } from './advice.js';
import type { Analysis, TreeData } from './analyze.js';
import type { CallAnalysis, WatchedFd } from './graph-types.js';

export interface ExplainContext {
  data: TreeData;
  byPid: Map<number, Analysis>;
  deadlocked: Set<number>;
}

function fdName(fd: number | null): string {
  if (fd === 0) return 'stdin';
  if (fd === 1) return 'stdout';
  if (fd === 2) return 'stderr';
  return fd === null ? 'an unknown fd' : `fd ${fd}`;
}

export function short(command: string): string {
  const line = command.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function nameProcess(pid: number, command: string): string {
  return `pid ${pid} \`${short(command)}\``;
}

function listPeers(peers: readonly PipePeer[]): string {
  return peers.map((peer) => nameProcess(peer.pid, peer.command)).join(', ');
}

function unread(call: CallAnalysis): string {
  const bytes = call.blocked?.unread;
  return bytes ? ` (${bytes.toLocaleString('en-US')} B unread)` : '';
}

// One sentence for one process: what it waits for, in the words a person would use. A process with
// more than one thread is told by the thread that matters, the others after it.
export function explainProcess(entry: Analysis, ctx: ExplainContext): string {
  const sentence = withThreads(entry, ctx);
  if (entry.role === 'watchdog')
    return "safe-run's watchdog: it waits for safe-run to exit, then stops whatever is left of the run";
  if (entry.role === 'safe-run') return `safe-run itself, supervising the run: ${sentence}`;
  return ctx.deadlocked.has(entry.view.pid) ? `deadlock: ${sentence}` : sentence;
}

function withThreads(entry: Analysis, ctx: ExplainContext): string {
  const { main, lead, threads } = entry;
  const tell = (call: CallAnalysis) => describeCall(call, entry, ctx);
  const named = (call: CallAnalysis) => threadName(call.tid, call.name);
  if (lead !== main) return `${named(lead)}: ${tell(lead)}; the main thread: ${tell(main)}`;
  const others = threads.filter((call) => call.wait !== 'thread');
  const said = others.slice(0, 2).map((call) => `; ${named(call)}: ${tell(call)}`);
  const more = others.length > 2 ? `; ${others.length - 2} more threads` : '';
  return `${tell(main)}${said.join('')}${more}`;
}

function threadName(tid: number, name: string): string {
  return `thread ${tid} \`${name}\``;
}

// A process told by another of its threads than the main one: that thread, and the sentence without
// its name in front, so that a sentence about the process names it after the pid ("its pid 7 (thread
// 9 `node`) was running: ..."). null when it is told by its main thread.
export function leadThread(proc: BlockedProcess): { thread: string; rest: string } | null {
  for (const { tid, name } of proc.threads ?? []) {
    const thread = threadName(tid, name);
    if (proc.explanation.startsWith(`${thread}: `))
      return { thread, rest: proc.explanation.slice(thread.length + 2) };
  }
  return null;
}

// The words for one call, by its kind of wait: the one place a WaitKind becomes a sentence.
export function describeCall(call: CallAnalysis, entry: Analysis, ctx: ExplainContext): string {
  const { blocked, detail } = call;
  const { view } = entry;
  const fd = fdName(blocked?.fd ?? null);
  const what = call.open?.kind === 'socket' ? 'a socket' : 'a pipe';
  switch (call.wait) {
    case 'working':
      if (blocked === null) return 'running: working, not blocked';
      return blocked.op === 'write'
        ? `writing to ${fd}, ${what} whose reader is reading it: working`
        : `reading ${fd}, ${what} whose writer is writing it: working`;
    case 'exited':
      return 'exited; its parent has not collected its exit status yet';
    case 'stopped':
      return 'stopped (SIGSTOP or a debugger): it does nothing until SIGCONT';
    case 'child':
      return blocked?.op === 'poll'
        ? `waiting for ${childList(call, ctx)} to exit (in ${call.syscall ?? 'poll'}, reading none of its pipes)`
        : `waiting for ${childList(call, ctx)} to exit`;
    case 'unread-output':
      return unreadOutput(call, fd, what, ctx);
    case 'to-safe-run':
      return `writing to ${fd}, a pipe to safe-run, which reads it`;
    case 'input':
      return input(call, fd, what, ctx);
    case 'safe-run-stdin':
      return `waiting for input on ${fd}, which is safe-run's stdin: give it input or use --stdin null`;
    case 'own-pipe':
      return `waiting for input on ${fd}, a pipe whose only writer is itself: it never ends`;
    case 'terminal':
      return detail.direct
        ? `waiting for an answer from the terminal it opened itself (${fd}, ${call.open?.link}), not from its stdin: ${terminalAdvice(view.command)}`
        : `waiting for input from the terminal (${fd}, ${call.open?.link}): type there and end with Ctrl-D, or give it stdin from a file or /dev/null (safe-run --stdin null)`;
    case 'terminal-output':
      return `blocked writing to the terminal (${call.open?.link}): output may be paused (Ctrl-S; Ctrl-Q resumes)`;
    default:
      // safe-run's own timers and servers are its work: advice on closing them is not for the reader.
      return describeOther(call, fd, entry.role === null ? view.command : null);
  }
}

function describeOther(call: CallAnalysis, fd: string, command: string | null): string {
  const { blocked, detail, open } = call;
  const verb = blocked?.op === 'read' ? 'reading' : 'writing';
  switch (call.wait) {
    case 'fifo-open': {
      const [mine, theirs] = detail.forWriting ? ['writing', 'reading'] : ['reading', 'writing'];
      return `opening the FIFO ${detail.path} for ${mine}: nobody has it open for ${theirs}, and open() waits until someone does`;
    }
    case 'lock':
      return call.peers && call.peers.length > 0
        ? `waiting for a lock on ${detail.path}, held by ${listPeers(call.peers)}`
        : `waiting for a lock on ${detail.path}; /proc/locks names no other holder`;
    case 'timer': {
      const after = detail.timeoutMs === undefined ? '' : ` (next in ${detail.timeoutMs} ms)`;
      return `idle with a timer pending${after}: it wakes by itself${command === null ? '' : `; ${timerAdvice(command)}`}`;
    }
    case 'server':
      return command === null
        ? `serving (listening on ${detail.address})`
        : `kept alive by an open server (listening on ${detail.address}): ${serverAdvice(command)}`;
    case 'events':
      return detail.watching && detail.watching.length > 0
        ? `waiting for input in ${call.syscall ?? 'poll'} on ${watchedList(detail.watching)}`
        : `waiting for events in ${call.syscall ?? 'poll'} (${blocked?.target ?? 'which fds /proc does not show'})`;
    case 'peer': {
      const what = open?.kind === 'socket' ? 'a socket' : open?.kind === 'fifo' ? 'a FIFO' : 'a pipe';
      // peers null: a socket whose peer the kernel does not name; empty: nobody read holds it.
      const where = detail.address
        ? `: its connection to ${detail.address} is not accepted yet`
        : `, which ${call.peers === null ? 'is not in this tree' : 'no process of this tree holds'}`;
      return `${verb} ${fd}, ${what} (${open?.link})${unread(call)}: waiting for the other side${where}`;
    }
    case 'sleep':
      return `sleeping (${call.syscall ?? 'sleep'}): not reading or writing anything; it wakes by itself`;
    case 'thread':
      return 'waiting on a lock or another thread (futex)';
    case 'file':
      return `${verb} ${fd}, the file ${open?.link}`;
    case 'unknown': {
      const how =
        blocked?.op === 'other' ? `sleeping in ${call.wchan ?? 'the kernel'}` : `blocked (${blocked?.op})`;
      return `${how}; on what is unknown: ${call.unknown}`;
    }
    default:
      return `in ${call.syscall ?? blocked?.target ?? 'a system call'}${call.wchan ? ` (${call.wchan})` : ''}`;
  }
}

// "stdin (a pipe from pid 7 `sleep 600`), fd 3 (the terminal /dev/pts/1) and 2 more".
function watchedList(watching: readonly WatchedFd[]): string {
  const named = watching.slice(0, 3).map((one) => `${fdName(one.fd)} (${watchedWhat(one)})`);
  if (watching.length > 3) named.push(`${watching.length - 3} more`);
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

function watchedWhat(one: WatchedFd): string {
  const what = one.kind === 'socket' ? 'a socket' : one.kind === 'fifo' ? 'a FIFO' : 'a pipe';
  if (one.kind === 'terminal') return `the terminal ${one.link}`;
  // script, tmux, an IDE: the side of a pseudo-terminal that reads what the program in it prints.
  if (one.link === '/dev/ptmx') return 'the master side of a pseudo-terminal, /dev/ptmx';
  if (one.kind === 'file') return `the file ${one.link}`;
  if (one.safeRunStdin) return "safe-run's stdin";
  if (one.from?.some((peer) => peer.safeRun)) return `${what} from safe-run`;
  if (one.from && one.from.length > 0) return `${what} from ${listPeers(one.from)}`;
  if (one.kind === 'socket') return `a socket, ${one.link}, whose other side is not in this tree`;
  return `${what}, ${one.link}, whose writer is not among the processes read`;
}

function unreadOutput(call: CallAnalysis, fd: string, what: string, ctx: ExplainContext): string {
  const peers = call.peers ?? [];
  const where = `${fd}, ${what}`;
  if (peers.length === 0) return `blocked writing to ${where} that only it can read`;
  // A reader with other threads at work may read it later (a drain thread between two reads).
  const busy = peers.some((peer) => ctx.byPid.get(peer.pid)?.threads.some((t) => t.wait !== 'thread'));
  if (peers.length === 1 && busy)
    return `blocked writing to ${where} whose only reader, ${listPeers(peers)}, is not reading it at this moment (another of its threads may)${unread(call)}`;
  if (peers.length === 1)
    return `blocked writing to ${where} whose only reader, ${listPeers(peers)}, never reads it${unread(call)}`;
  return `blocked writing to ${where} whose readers (${listPeers(peers)}) never read it${unread(call)}`;
}

function input(call: CallAnalysis, fd: string, what: string, ctx: ExplainContext): string {
  const peers = call.peers ?? [];
  if (call.blocked?.op === 'poll' && call.detail.watching)
    return `waiting for input in ${call.syscall ?? 'poll'} on ${watchedList(call.detail.watching)}`;
  if (peers.some((peer) => peer.safeRun)) return `waiting for input on ${fd}, the pipe from safe-run`;
  const stages = new Set(
    peers.map((peer) => ctx.data.members.find((m) => m.pid === peer.pid)?.stage ?? null),
  );
  const stage = stages.size === 1 && [...stages][0] !== null ? ` (stage ${[...stages][0]})` : '';
  return `waiting for input on ${fd}, ${what} from ${listPeers(peers)}${stage}`;
}

function childList(call: CallAnalysis, ctx: ExplainContext): string {
  const kids = call.wakers.map((pid) => ctx.byPid.get(pid)?.view).filter((v) => v !== undefined);
  if (kids.length === 0) return 'a child';
  const names = kids.map((kid) => `${kid.pid} \`${short(kid.command)}\``);
  return kids.length === 1 ? `child ${names[0]}` : `its children (${names.join(', ')})`;
}

// "pid 50 waits for child 51 to exit; 51 is blocked writing to stderr, a pipe only 50 can read".
export function explainDeadlock(order: readonly number[], ctx: ExplainContext): string {
  return order
    .map((pid, i) => {
      const entry = ctx.byPid.get(pid)!;
      const who = i === 0 ? `pid ${pid}` : `${pid}`;
      const call =
        [entry.main, ...entry.threads].find((c) => c.wakers.some((w) => ctx.deadlocked.has(w))) ?? entry.lead;
      const inside = call.wakers.filter((waker) => ctx.deadlocked.has(waker)).join(' and ');
      const fd = fdName(call.blocked?.fd ?? null);
      const what = call.open?.kind === 'socket' ? 'a socket' : 'a pipe';
      switch (call.wait) {
        case 'unread-output':
          return `${who} is blocked writing to ${fd}, ${what} only ${inside} can read`;
        case 'input':
        case 'own-pipe':
          return `${who} waits for input on ${fd}, ${what} only ${inside} can write`;
        case 'lock':
          return `${who} waits for a lock that ${inside} holds`;
        default:
          return `${who} waits for child ${inside} to exit`;
      }
    })
    .join('; ');
}
