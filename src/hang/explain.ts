import type { PipePeer } from '../types.js';
import type { Analysis, TreeData } from './analyze.js';

export interface ExplainContext {
  data: TreeData;
  byPid: Map<number, Analysis>;
  deadlocked: Set<number>;
}

export function fdName(fd: number | null): string {
  if (fd === 0) return 'stdin';
  if (fd === 1) return 'stdout';
  if (fd === 2) return 'stderr';
  return fd === null ? 'an unknown fd' : `fd ${fd}`;
}

export function short(command: string): string {
  const line = command.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

export function nameProcess(pid: number, command: string): string {
  return `pid ${pid} \`${short(command)}\``;
}

function listPeers(peers: readonly PipePeer[]): string {
  return peers.map((peer) => nameProcess(peer.pid, peer.command)).join(', ');
}

function writing(entry: Analysis, peers: PipePeer[]): string {
  const where = `${fdName(entry.blocked!.fd)}, a pipe`;
  if (peers.length === 0) return `blocked writing to ${where} that only it can read`;
  if (peers.some((peer) => peer.safeRun)) return `writing to ${where} to safe-run, which reads it`;
  const idle = peers.filter((peer) => !peer.reading);
  if (idle.length < peers.length) return `writing to ${where} whose reader is reading it: working`;
  if (peers.length === 1)
    return `blocked writing to ${where} whose only reader, ${listPeers(peers)}, never reads it`;
  return `blocked writing to ${where} whose readers (${listPeers(peers)}) never read it`;
}

function readingPipe(entry: Analysis, peers: PipePeer[], ctx: ExplainContext): string {
  const fd = fdName(entry.blocked!.fd);
  if (entry.open?.key === ctx.data.safeRunStdin) {
    return `waiting for input on ${fd}, which is safe-run's stdin: give it input or use --stdin null`;
  }
  if (peers.length === 0)
    return `waiting for input on ${fd}, a pipe whose only writer is itself: it never ends`;
  if (peers.some((peer) => peer.safeRun)) return `waiting for input on ${fd}, the pipe from safe-run`;
  const stages = new Set(
    peers.map((peer) => ctx.data.members.find((m) => m.pid === peer.pid)?.stage ?? null),
  );
  const stage = stages.size === 1 && [...stages][0] !== null ? ` (stage ${[...stages][0]})` : '';
  return `waiting for input on ${fd}, a pipe from ${listPeers(peers)}${stage}`;
}

function onFd(entry: Analysis, ctx: ExplainContext): string {
  const { blocked, open } = entry;
  const fd = fdName(blocked!.fd);
  const verb = blocked!.op === 'read' ? 'reading' : 'writing';
  if (!open) return `${verb} ${fd}`;
  // Whatever safe-run's stdin is (a pipe, a socket from a parent process), only its writer can end it.
  if (open.key === ctx.data.safeRunStdin && open.kind !== 'terminal' && blocked!.op === 'read') {
    return `waiting for input on ${fd}, which is safe-run's stdin: give it input or use --stdin null`;
  }
  if (open.kind === 'terminal') {
    return blocked!.op === 'read'
      ? `waiting for input from the terminal (${fd}, ${open.link}): type there and end with Ctrl-D, or give it stdin from a file or /dev/null (safe-run --stdin null)`
      : `blocked writing to the terminal (${open.link}): output may be paused (Ctrl-S; Ctrl-Q resumes)`;
  }
  if (open.kind === 'socket') return `${verb} ${fd}, a socket (${open.link}): waiting for the other side`;
  if (open.kind === 'file') return `${verb} ${fd}, the file ${open.link}`;
  if (open.kind === 'pipe' || open.kind === 'fifo') {
    return blocked!.op === 'write'
      ? writing(entry, entry.peers ?? [])
      : readingPipe(entry, entry.peers ?? [], ctx);
  }
  return `${verb} ${fd} (${open.link})`;
}

function childList(entry: Analysis, ctx: ExplainContext): string {
  const kids = entry.wakers.map((pid) => ctx.byPid.get(pid)?.view).filter((v) => v !== undefined);
  if (kids.length === 0) return 'a child';
  const names = kids.map((kid) => `${kid.pid} \`${short(kid.command)}\``);
  return kids.length === 1 ? `child ${names[0]}` : `its children (${names.join(', ')})`;
}

// One sentence for one process: what it waits for, in the words a person would use.
export function explainProcess(entry: Analysis, ctx: ExplainContext): string {
  const sentence = describe(entry, ctx);
  return ctx.deadlocked.has(entry.view.pid) ? `deadlock: ${sentence}` : sentence;
}

function describe(entry: Analysis, ctx: ExplainContext): string {
  const { view, blocked } = entry;
  if (view.state === 'Z' || view.state === 'X')
    return 'exited; its parent has not collected its exit status yet';
  if (view.state === 'T' || view.state === 't')
    return 'stopped (SIGSTOP or a debugger): it does nothing until SIGCONT';
  if (blocked === null) return 'running: working, not blocked';
  if (entry.unknown) {
    const what =
      blocked.op === 'other' ? `sleeping in ${view.wchan ?? 'the kernel'}` : `blocked (${blocked.op})`;
    return `${what}; on what is unknown: ${entry.unknown}`;
  }
  const call = view.syscall !== null && view.syscall !== 'running' ? view.syscall : null;
  switch (blocked.op) {
    case 'wait':
      return `waiting for ${childList(entry, ctx)} to exit`;
    case 'read':
    case 'write':
      return onFd(entry, ctx);
    case 'sleep':
      return `sleeping (${call?.name ?? 'sleep'}): not reading or writing anything; it wakes by itself`;
    case 'poll':
      if (
        !entry.external &&
        entry.wakers.length > 0 &&
        entry.wakers.every((pid) => ctx.byPid.get(pid)?.view.ppid === view.pid)
      ) {
        return `waiting for ${childList(entry, ctx)} to exit (in ${call?.name}, reading none of its pipes)`;
      }
      return `waiting for events in ${call?.name ?? 'poll'} (${blocked.target ?? 'which fds /proc does not show'})`;
    default:
      if (call?.name === 'futex') return 'waiting on a lock or another thread (futex)';
      return `in ${call?.name ?? blocked.target ?? 'a system call'}${view.wchan ? ` (${view.wchan})` : ''}`;
  }
}

// "pid 50 waits for child 51 to exit; 51 is blocked writing to stderr, a pipe only 50 can read".
export function explainDeadlock(order: readonly number[], ctx: ExplainContext): string {
  return order
    .map((pid, i) => {
      const entry = ctx.byPid.get(pid)!;
      const who = i === 0 ? `pid ${pid}` : `${pid}`;
      const inside = entry.wakers.filter((waker) => ctx.deadlocked.has(waker)).join(' and ');
      const fd = fdName(entry.blocked?.fd ?? null);
      switch (entry.blocked?.op) {
        case 'write':
          return `${who} is blocked writing to ${fd}, a pipe only ${inside} can read`;
        case 'read':
          return `${who} waits for input on ${fd}, a pipe only ${inside} can write`;
        default:
          return `${who} waits for child ${inside} to exit`;
      }
    })
    .join('; ');
}
