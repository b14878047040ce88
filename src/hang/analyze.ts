import type { BlockedOn, PipePeer } from '../types.js';
import type { OpenFd, ProcView } from './proc-view.js';
import { opFromWchan } from './syscalls.js';

// A process of the tree being explained, with the stage it belongs to (null when none or unknown).
export interface MemberView extends ProcView {
  stage: number | null;
}

// Everything the graph and the sentences need, read once: the tree's processes, the other holders
// of their pipes (safe-run among them), and safe-run's own stdin.
export interface TreeData {
  members: MemberView[];
  context: ProcView[];
  safeRunPid: number | null;
  // "device:inode" of safe-run's fd 0, so a stage reading it is told apart from other pipes.
  safeRunStdin: string | null;
}

export interface Analysis {
  view: MemberView;
  blocked: BlockedOn | null;
  // The descriptor it is blocked on, when known.
  open: OpenFd | null;
  peers: PipePeer[] | null;
  // Processes whose action (writing, reading, exiting) would let it go on.
  wakers: number[];
  // Something outside the processes can also let it go on: time, a terminal, safe-run, the unknown.
  external: boolean;
  // What the kernel would not say, in words; null when nothing is hidden.
  unknown: string | null;
}

interface Holder {
  view: ProcView;
  fd: number;
  end: OpenFd['end'];
}

export function indexHolders(data: TreeData): Map<string, Holder[]> {
  const index = new Map<string, Holder[]>();
  for (const view of [...data.members, ...data.context]) {
    for (const open of view.fds ?? []) {
      if (open.kind !== 'pipe' && open.kind !== 'fifo') continue;
      const list = index.get(open.key) ?? [];
      list.push({ view, fd: open.fd, end: open.end });
      index.set(open.key, list);
    }
  }
  return index;
}

// True when the process is in read() on this pipe, or in epoll_wait watching one of its fds for it.
export function isReading(view: ProcView, key: string): boolean {
  const call = view.syscall;
  if (call === null || call === 'running' || call.fd === null) return false;
  const own = (fd: number) => view.fds?.find((open) => open.fd === fd)?.key === key;
  if (call.op === 'read') return own(call.fd);
  if (call.op === 'poll') return (view.epolls[call.fd] ?? []).some(own);
  return false;
}

// Holders of the end of `key` opposite to `end`, the process itself left out.
function otherEnd(index: Map<string, Holder[]>, key: string, self: number, want: 'read' | 'write') {
  const byPid = new Map<number, PipePeer>();
  for (const holder of index.get(key) ?? []) {
    if (holder.view.pid === self || (holder.end !== want && holder.end !== 'both')) continue;
    const peer = byPid.get(holder.view.pid) ?? {
      pid: holder.view.pid,
      command: holder.view.command,
      fds: [],
      reading: false,
      safeRun: false,
    };
    peer.fds.push(holder.fd);
    byPid.set(holder.view.pid, peer);
  }
  return [...byPid.values()];
}

function describeTarget(open: OpenFd): string {
  if (open.kind === 'pipe' || open.kind === 'socket') return open.link;
  if (open.kind === 'fifo') return `fifo:[${open.key.split(':')[1]}] ${open.link}`;
  return `${open.kind} ${open.link}`;
}

export function analyzeProcess(view: MemberView, data: TreeData, index: Map<string, Holder[]>): Analysis {
  const none: Analysis = {
    view,
    blocked: null,
    open: null,
    peers: null,
    wakers: [],
    external: true,
    unknown: null,
  };
  if (view.state === 'Z' || view.state === 'X' || view.state === 'R' || view.syscall === 'running')
    return none;
  if (view.syscall === null) {
    const why = `/proc/${view.pid}/syscall is not readable (no permission, or no such file on this kernel)`;
    return { ...none, blocked: { op: opFromWchan(view.wchan), fd: null, target: 'unknown' }, unknown: why };
  }
  const call = view.syscall;
  const op = call.op ?? opFromWchan(view.wchan);
  const children = data.members.filter((other) => other.ppid === view.pid && other.pid !== view.pid);
  if (op === 'wait') {
    const wanted =
      call.args[0] !== undefined && call.args[0] > 0 && call.name === 'wait4' ? call.args[0] : null;
    const waited = wanted === null ? children : children.filter((child) => child.pid === wanted);
    const target = wanted === null ? 'any child' : `child ${wanted}`;
    return {
      ...none,
      blocked: { op, fd: null, target },
      wakers: waited.map((c) => c.pid),
      external: waited.length === 0,
    };
  }
  const open = call.fd === null ? null : (view.fds?.find((entry) => entry.fd === call.fd) ?? null);
  const blocked: BlockedOn = {
    op,
    fd: call.fd,
    target: open ? describeTarget(open) : call.name === null ? `syscall ${call.nr}` : null,
  };
  if (op === 'poll') return analyzePoll(view, call, blocked, children, index);
  if ((op !== 'read' && op !== 'write') || !open) return { ...none, blocked, open };
  if (open.kind !== 'pipe' && open.kind !== 'fifo') return { ...none, blocked, open };
  const peers = otherEnd(index, open.key, view.pid, op === 'write' ? 'read' : 'write');
  for (const peer of peers) {
    peer.safeRun = peer.pid === data.safeRunPid;
    const holder = index.get(open.key)?.find((entry) => entry.view.pid === peer.pid);
    // safe-run reads every stream it holds until end of file.
    peer.reading = peer.safeRun ? op === 'write' : holder ? isReading(holder.view, open.key) : false;
  }
  const memberPids = new Set(data.members.map((member) => member.pid));
  const external =
    open.key === data.safeRunStdin || peers.some((peer) => peer.safeRun || !memberPids.has(peer.pid));
  // Alone on a pipe: nobody else can ever read (or write) it.
  const wakers = peers.length === 0 ? [view.pid] : peers.map((peer) => peer.pid);
  return { view, blocked, open, peers, wakers, external, unknown: null };
}

function analyzePoll(
  view: MemberView,
  call: Exclude<ProcView['syscall'], 'running' | null>,
  blocked: BlockedOn,
  children: MemberView[],
  index: Map<string, Holder[]>,
): Analysis {
  const base = { view, blocked, open: null, peers: null, unknown: null };
  const watched = call.fd === null ? undefined : view.epolls[call.fd];
  // epoll_wait/epoll_pwait take a timeout in ms (-1: none); epoll_pwait2 a pointer (0: none).
  const forever = call.name === 'epoll_pwait2' ? call.args[3] === 0 : call.args[3] === -1;
  if (watched !== undefined)
    blocked.target = `epoll watching ${watched.length > 0 ? `fds ${watched.join(', ')}` : 'nothing'}`;
  if (watched === undefined || !forever) return { ...base, wakers: [], external: true };
  const wakers = new Set(children.map((child) => child.pid));
  let external = false;
  for (const fd of watched) {
    const open = view.fds?.find((entry) => entry.fd === fd);
    if (!open || (open.kind === 'other' && !open.link.includes('timerfd'))) continue;
    if (open.kind !== 'pipe' && open.kind !== 'fifo') {
      external = true;
      continue;
    }
    // A pipe only this process writes is a self-pipe (a signal handler's): a child's exit wakes it.
    for (const peer of otherEnd(index, open.key, view.pid, 'write')) wakers.add(peer.pid);
  }
  return { ...base, wakers: [...wakers], external: external || wakers.size === 0 };
}
