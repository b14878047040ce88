import type { CallAnalysis, CallContext, WatchedFd } from './graph-types.js';
import { otherEnd, socketOf } from './holders.js';
import type { OpenFd, ThreadView } from './proc-view.js';
import type { DecodedCall } from './syscalls.js';

type Partial = Omit<CallAnalysis, 'wait'>;

// The timeout of a poll-like call in milliseconds: null for none (it waits for ever), undefined when
// it is finite but unknown (a pointer to a timespec).
function timeoutOf(call: DecodedCall): number | null | undefined {
  switch (call.name) {
    case 'epoll_wait':
    case 'epoll_pwait':
      return call.args[3] === -1 ? null : call.args[3];
    case 'poll':
      return call.args[2] === -1 ? null : call.args[2];
    case 'epoll_pwait2':
      return call.words[3] === 0n ? null : undefined;
    case 'ppoll':
      return call.words[2] === 0n ? null : undefined;
    default:
      // select and pselect6: a pointer to the timeout, NULL for none.
      return call.words[4] === 0n ? null : undefined;
  }
}

// An event loop (epoll) or a poll/select: what it watches for input, read from the epoll's fdinfo or
// from the call's own memory. A finite timeout is a timer (Node's setTimeout/setInterval, asyncio's
// call_later): it wakes by itself. A watched listening socket is an open server. Pipes and sockets
// with a peer in the tree make their writers its wakers; a child's exit wakes it (SIGCHLD).
export function analyzePoll(
  call: DecodedCall,
  thread: ThreadView,
  here: Partial,
  ctx: CallContext,
): CallAnalysis {
  const { view, data } = ctx;
  const watched = call.fd !== null ? view.epolls[call.fd] : (thread.polled ?? undefined);
  const timeout = timeoutOf(call);
  if (watched !== undefined)
    here.blocked!.target = `${call.fd !== null ? 'epoll ' : ''}watching ${watched.length > 0 ? `fds ${watched.join(', ')}` : 'nothing'}`;
  const fds = (watched ?? [])
    .map((fd) => view.fds?.find((entry) => entry.fd === fd))
    .filter((open) => open !== undefined);
  const server = fds.map((open) => socketOf(open, data.sockets)).find((socket) => socket?.listening);
  if (server)
    return { ...here, wait: 'server', detail: { address: server.address ?? `socket:[${server.inode}]` } };
  if (timeout !== null)
    return { ...here, wait: 'timer', detail: timeout === undefined ? {} : { timeoutMs: timeout } };
  if (watched === undefined) return { ...here, wait: 'events' };
  return fromWatched(fds, thread, here, ctx);
}

// An endless wait on the fds it watches: who could write to them, and whether that is all inside the
// tree (then it is part of the wait-for graph) or something outside can too.
function fromWatched(fds: OpenFd[], thread: ThreadView, here: Partial, ctx: CallContext): CallAnalysis {
  const { view, data, index } = ctx;
  const wakers = new Set(ctx.children.map((child) => child.pid));
  const members = new Set(data.members.map((member) => member.pid));
  const watching: WatchedFd[] = [];
  let external = false;
  let input = false;
  for (const open of fds) {
    // eventfds, signalfds and the like are the program's own wake-ups; a timerfd is time.
    if (open.kind === 'other') {
      if (open.link.includes('timerfd')) external = true;
      continue;
    }
    const safeRunStdin = open.key === data.safeRunStdin;
    if (open.kind === 'terminal' || open.kind === 'file') {
      external = true;
      watching.push({ fd: open.fd, kind: open.kind, link: open.link, from: null, safeRunStdin });
      continue;
    }
    const other = otherEnd(index, open, view.pid, 'write', data.sockets);
    const from = other?.peers ?? null;
    // A pipe only this process writes is a self-pipe (a signal handler's): a child's exit wakes it.
    if (from?.length === 0 && selfPipe(open, view.fds ?? [])) continue;
    watching.push({ fd: open.fd, kind: open.kind, link: open.link, from, safeRunStdin });
    if (from === null || from.length === 0) external = true;
    for (const peer of from ?? []) {
      peer.safeRun = peer.pid === data.safeRunPid;
      wakers.add(peer.pid);
      input = true;
      if (peer.safeRun || !members.has(peer.pid)) external = true;
    }
  }
  // A helper thread's loop with nothing from outside to watch (V8's task runner) waits for its own
  // process: the other threads wake it, as a futex would.
  if (!external && !input && thread.tid !== view.pid) return { ...here, wait: 'thread' };
  const free = external || wakers.size === 0;
  const wait = free ? 'events' : input ? 'input' : 'child';
  return { ...here, wakers: [...wakers], external: free, wait, detail: { watching } };
}

// The process holds this pipe on another fd as well: it writes to itself.
function selfPipe(open: OpenFd, fds: readonly OpenFd[]): boolean {
  return fds.some((other) => other.fd !== open.fd && other.key === open.key);
}
