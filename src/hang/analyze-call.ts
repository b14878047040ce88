import type { BlockedOn } from '../types.js';
import { analyzePoll } from './analyze-poll.js';
import type { CallAnalysis, CallContext } from './graph-types.js';
import { isReading, isWriting, otherEnd, socketOf } from './holders.js';
import { lockKey } from './locks.js';
import type { OpenFd, ThreadView } from './proc-view.js';
import { type DecodedCall, opFromWchan } from './syscalls.js';

export function analyzeCall(thread: ThreadView, ctx: CallContext): CallAnalysis {
  const syscall = thread.syscall !== null && thread.syscall !== 'running' ? thread.syscall.name : null;
  const base = {
    tid: thread.tid,
    name: thread.name,
    syscall,
    wchan: thread.wchan,
    open: null,
    peers: null,
    unknown: null,
    detail: {},
  };
  const free = { ...base, blocked: null, wakers: [], external: true };
  if (thread.state === 'R' || thread.syscall === 'running') return { ...free, wait: 'working' };
  if (thread.state === 'Z' || thread.state === 'X') return { ...free, wait: 'exited' };
  if (thread.state === 'T' || thread.state === 't') return { ...free, wait: 'stopped' };
  if (thread.syscall === null) {
    const why = `/proc/${thread.tid}/syscall is not readable (no permission, or no such file on this kernel)`;
    const blocked = { op: opFromWchan(thread.wchan), fd: null, target: 'unknown', unread: null };
    return { ...free, blocked, unknown: why, wait: 'unknown' };
  }
  const call = thread.syscall;
  const op = call.op ?? opFromWchan(thread.wchan);
  if (op === 'wait') return waitForChild(call, base, ctx);
  const open = call.fd === null ? null : (ctx.view.fds?.find((entry) => entry.fd === call.fd) ?? null);
  const target = open ? describeTarget(open) : call.name === null ? `syscall ${call.nr}` : null;
  const blocked: BlockedOn = { op, fd: call.fd, target, unread: null };
  const here = { ...base, blocked, open, wakers: [] as number[], external: true };
  if (op === 'poll') return analyzePoll(call, thread, here, ctx);
  // Whatever safe-run's stdin is (a pipe, a socket from its parent), only its writer can end it.
  if (op === 'read' && open && open.kind !== 'terminal' && open.key === ctx.data.safeRunStdin)
    return { ...here, wait: 'safe-run-stdin' };
  if (op === 'sleep') return { ...here, wait: 'sleep' };
  // futex(uaddr, op, val, timeout): with a timeout it is a sleep (a timed wait wakes by itself).
  if (call.name === 'futex') return { ...here, wait: call.words[3] ? 'sleep' : 'thread' };
  if (thread.path !== null) return openingFifo(thread, here);
  if (open && (call.name === 'flock' || isLockWait(call))) return waitingForLock(open, here, ctx);
  if ((op !== 'read' && op !== 'write') || !open) return { ...here, wait: 'other' };
  if (open.kind === 'terminal') {
    const wait = op === 'read' ? 'terminal' : 'terminal-output';
    return { ...here, wait, detail: { direct: call.fd !== 0 } };
  }
  if (open.kind === 'file') return { ...here, wait: 'file' };
  if (open.kind === 'other') return { ...here, wait: 'other' };
  return onStream(op, open, here, ctx);
}

type Partial = Omit<CallAnalysis, 'wait'>;

function waitForChild(
  call: DecodedCall,
  base: Omit<Partial, 'blocked' | 'wakers' | 'external'>,
  ctx: CallContext,
) {
  const wanted =
    call.args[0] !== undefined && call.args[0] > 0 && call.name === 'wait4' ? call.args[0] : null;
  const waited = wanted === null ? ctx.children : ctx.children.filter((child) => child.pid === wanted);
  const target = wanted === null ? 'any child' : `child ${wanted}`;
  return {
    ...base,
    blocked: { op: 'wait' as const, fd: null, target, unread: null },
    wakers: waited.map((child) => child.pid),
    external: waited.length === 0,
    wait: 'child' as const,
  };
}

// fcntl(fd, F_SETLKW or F_OFD_SETLKW, ...): the blocking lock calls (x86_64 values 7 and 38).
function isLockWait(call: DecodedCall): boolean {
  return call.name === 'fcntl' && (call.args[1] === 7 || call.args[1] === 38);
}

function describeTarget(open: OpenFd): string {
  if (open.kind === 'pipe' || open.kind === 'socket') return open.link;
  if (open.kind === 'fifo') return `fifo:[${open.key.split(':')[1]}] ${open.link}`;
  return `${open.kind} ${open.link}`;
}

// open() of a FIFO sleeps until a process opens the other end (wait_for_partner): anyone may, so it
// is never counted in a deadlock. Who could is not knowable; who has it open already is.
function openingFifo(thread: ThreadView, here: Partial): CallAnalysis {
  const call = thread.syscall as DecodedCall;
  const flags = call.name === 'open' ? call.args[1] : call.args[2];
  const forWriting = ((flags ?? 0) & 3) !== 0;
  const target = `fifo ${thread.path}`;
  if (!/wait_for_partner|fifo_open/.test(thread.wchan ?? ''))
    return { ...here, blocked: { ...here.blocked!, target: `file ${thread.path}` }, wait: 'other' };
  return {
    ...here,
    blocked: { ...here.blocked!, target },
    wait: 'fifo-open',
    detail: { path: thread.path!, forWriting },
  };
}

// flock() and fcntl(F_SETLKW) wait for the processes holding a lock on the file (/proc/locks).
function waitingForLock(open: OpenFd, here: Partial, ctx: CallContext): CallAnalysis {
  const key = lockKey(open.key);
  const holders = (key === null ? [] : (ctx.data.locks.get(key) ?? [])).filter((pid) => pid !== ctx.view.pid);
  const views = [...ctx.data.members, ...ctx.data.context];
  const peers = holders.map((pid) => ({
    pid,
    command: views.find((view) => view.pid === pid)?.command ?? '?',
    fds: [],
    reading: false,
    safeRun: false,
  }));
  const members = new Set(ctx.data.members.map((member) => member.pid));
  const external = holders.length === 0 || holders.some((pid) => !members.has(pid));
  return { ...here, peers, wakers: holders, external, wait: 'lock', detail: { path: open.link } };
}

// read() or write() on a pipe, FIFO or socket: who holds the other end, and whether they are acting.
function onStream(op: 'read' | 'write', open: OpenFd, here: Partial, ctx: CallContext): CallAnalysis {
  const { data, view, index } = ctx;
  const socket = socketOf(open, data.sockets);
  if (socket?.listening) return { ...here, wait: 'server', detail: { address: socket.address ?? open.link } };
  const other = otherEnd(index, open, view.pid, op === 'write' ? 'read' : 'write', data.sockets);
  if (other === null)
    return { ...here, wait: 'peer', detail: socket?.unaccepted ? { address: socket.unaccepted } : {} };
  const peerSocket = open.kind === 'socket' ? data.sockets.get(Number(other.key.split(':')[1])) : undefined;
  const blocked = { ...here.blocked!, unread: op === 'write' ? (peerSocket?.queued ?? null) : null };
  const { peers } = other;
  for (const peer of peers) {
    peer.safeRun = peer.pid === data.safeRunPid;
    const holder = index.get(other.key)?.find((entry) => entry.view.pid === peer.pid);
    // safe-run reads every stream it holds until end of file.
    peer.reading = peer.safeRun ? op === 'write' : holder ? isReading(holder.view, other.key) : false;
  }
  // Nobody read holds the other end, not even itself: someone does (a pipe with no writer left reads
  // end of file; a socket's peer exists), unseen: outside the tree, or not yet accepted.
  if (peers.length === 0 && !holdsOtherEnd(view.fds ?? [], other.key, op, open.kind))
    return { ...here, blocked, peers, wait: 'peer' };
  const members = new Set(data.members.map((member) => member.pid));
  const outside = peers.some((peer) => peer.safeRun || !members.has(peer.pid));
  // Alone on a pipe: nobody else can ever read (or write) it.
  const wakers = peers.length === 0 ? [view.pid] : peers.map((peer) => peer.pid);
  const result = { ...here, blocked, peers, wakers, external: outside };
  if (op === 'write') {
    if (peers.some((peer) => peer.safeRun)) return { ...result, external: true, wait: 'to-safe-run' };
    if (peers.some((peer) => peer.reading)) return { ...result, external: true, wait: 'working' };
    return { ...result, wait: 'unread-output' };
  }
  if (peers.length === 0) return { ...result, wait: 'own-pipe' };
  const writing = peers.some((peer) => {
    const holder = index.get(other.key)?.find((entry) => entry.view.pid === peer.pid);
    return holder !== undefined && isWriting(holder.view, other.key);
  });
  return writing ? { ...result, external: true, wait: 'working' } : { ...result, wait: 'input' };
}

// It holds the end that would wake it itself: a pipe's write end (or its read end, for a writer), a
// FIFO opened for both, a socket's peer.
function holdsOtherEnd(fds: readonly OpenFd[], key: string, op: 'read' | 'write', kind: OpenFd['kind']) {
  const wanted = op === 'read' ? 'write' : 'read';
  return fds.some(
    (own) => own.key === key && (kind === 'socket' || own.end === wanted || own.end === 'both'),
  );
}
