import type { PipePeer } from '../types.js';
import type { OpenFd, ProcView, ThreadView } from './proc-view.js';
import type { SocketInfo, SocketTable } from './sockets.js';

interface Holder {
  view: ProcView;
  fd: number;
  end: OpenFd['end'];
}

// Every holder of every pipe, FIFO and socket among the processes read, by "device:inode".
export type HolderIndex = Map<string, Holder[]>;

export function indexHolders(views: readonly ProcView[]): HolderIndex {
  const index: HolderIndex = new Map();
  for (const view of views) {
    for (const open of view.fds ?? []) {
      if (open.kind !== 'pipe' && open.kind !== 'fifo' && open.kind !== 'socket') continue;
      const list = index.get(open.key) ?? [];
      list.push({ view, fd: open.fd, end: open.end });
      index.set(open.key, list);
    }
  }
  return index;
}

// The main thread and the others, as one list: any of them may be the one reading.
export function threadsOf(view: ProcView): ThreadView[] {
  const { syscall, state, wchan, path, polled, runMark } = view;
  return [{ tid: view.pid, name: '', state, wchan, syscall, path, polled, runMark }, ...(view.threads ?? [])];
}

// True when one of its threads is in read() on this descriptor, or in an epoll_wait, poll or select
// watching it for input.
export function isReading(view: ProcView, key: string): boolean {
  const own = (fd: number) => view.fds?.find((open) => open.fd === fd)?.key === key;
  return threadsOf(view).some((thread) => {
    const call = thread.syscall;
    if (call === null || call === 'running') return false;
    if (call.op === 'read' && call.fd !== null) return own(call.fd);
    if (call.op !== 'poll') return false;
    const watched = call.fd !== null ? view.epolls[call.fd] : thread.polled;
    return (watched ?? []).some(own);
  });
}

// True when one of its threads is in write() on this descriptor.
export function isWriting(view: ProcView, key: string): boolean {
  return threadsOf(view).some((thread) => {
    const call = thread.syscall;
    if (call === null || call === 'running' || call.op !== 'write' || call.fd === null) return false;
    return view.fds?.find((open) => open.fd === call.fd)?.key === key;
  });
}

// The key of a socket's other end, where the kernel says which socket that is; null when unknown.
function peerKey(open: OpenFd, sockets: SocketTable): string | null {
  const info = socketOf(open, sockets);
  return info?.peer ? `${open.key.split(':')[0]}:${info.peer}` : null;
}

export function socketOf(open: OpenFd, sockets: SocketTable): SocketInfo | undefined {
  return open.kind === 'socket' ? sockets.get(Number(open.key.split(':')[1])) : undefined;
}

// Holders of the other end of `open` (a pipe's opposite end, a socket's peer), `self` left out; null
// for a socket whose peer is unknown.
export function otherEnd(
  index: HolderIndex,
  open: OpenFd,
  self: number,
  want: 'read' | 'write',
  sockets: SocketTable,
): { key: string; peers: PipePeer[] } | null {
  const key = open.kind === 'socket' ? peerKey(open, sockets) : open.key;
  if (key === null) return null;
  const byPid = new Map<number, PipePeer>();
  for (const holder of index.get(key) ?? []) {
    if (holder.view.pid === self) continue;
    if (open.kind !== 'socket' && holder.end !== want && holder.end !== 'both') continue;
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
  return { key, peers: [...byPid.values()] };
}
