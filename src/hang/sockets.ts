import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// A table of /proc/net as a whole. These are seq_files that hand out a page or so per read whatever
// the buffer, so a short read is not the end: read until the kernel says it is (readFileSync does).
// A table cut after its first page lost sockets here, intermittently.
export function readTable(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

// One socket a process of the tree holds, as the kernel's tables describe it.
export interface SocketInfo {
  inode: number;
  proto: 'unix' | 'tcp';
  // The inode of its other end, where that is on this machine and the kernel says which it is.
  peer: number | null;
  // Bytes in its receive queue that its holder has not read; null where unknown.
  queued: number | null;
  listening: boolean;
  // TCP: "127.0.0.1:8080" (its own end); unix: its path, or null for an unnamed one.
  address: string | null;
  // TCP: the address it connected to, when its other end is still in that listener's queue (the
  // kernel lists it with no inode until accept() takes it); else null.
  unaccepted?: string;
}

// By inode.
export type SocketTable = Map<number, SocketInfo>;

// The sockets among `wanted` (inodes), read from /proc/PID/net of a process that holds them (the
// tables of its network namespace). TCP sockets are paired by their addresses (one connection's two
// ends on this machine have each other's addresses). /proc/net/unix does not say which unix socket
// is connected to which; `ss` asks the kernel (sock_diag) and says, so unix peers are known where
// `ss` is installed, and unknown (never guessed) where it is not.
export function readSockets(pid: number, wanted: ReadonlySet<number>): SocketTable {
  const table: SocketTable = new Map();
  if (wanted.size === 0) return table;
  const unix = readUnix(`/proc/${pid}/net/unix`, wanted);
  const links = unix.length > 0 ? readUnixLinks() : null;
  for (const entry of unix) {
    const link = links?.get(entry.inode);
    table.set(entry.inode, {
      inode: entry.inode,
      proto: 'unix',
      peer: link?.peer ? link.peer : null,
      queued: link?.queued ?? null,
      listening: entry.listening,
      address: entry.path,
    });
  }
  // /proc/net/tcp walks the kernel's whole connection table (18 ms a read here, however few
  // connections there are): read only for a socket that is not a unix one.
  if (unix.length < wanted.size) addTcp(table, pid, wanted);
  return table;
}

function addTcp(table: SocketTable, pid: number, wanted: ReadonlySet<number>): void {
  const tcp = [...readTcp(`/proc/${pid}/net/tcp`), ...readTcp(`/proc/${pid}/net/tcp6`)];
  const byEnds = new Map(tcp.map((entry) => [`${entry.local}>${entry.remote}`, entry]));
  for (const entry of tcp) {
    if (!wanted.has(entry.inode) || table.has(entry.inode)) continue;
    const peer = entry.listening ? undefined : byEnds.get(`${entry.remote}>${entry.local}`);
    table.set(entry.inode, {
      inode: entry.inode,
      proto: 'tcp',
      peer: peer?.inode || null,
      queued: entry.queued,
      listening: entry.listening,
      address: decodeAddress(entry.local),
      // 01: ESTABLISHED, yet no socket holds it: accepted by nobody so far.
      ...(peer?.inode === 0 && peer.state === '01' ? { unaccepted: decodeAddress(entry.remote) } : {}),
    });
  }
}

interface TcpEntry {
  local: string;
  remote: string;
  state: string;
  inode: number;
  queued: number;
  listening: boolean;
}

// "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
function readTcp(path: string): TcpEntry[] {
  const lines = readTable(path).split('\n').slice(1);
  const entries: TcpEntry[] = [];
  for (const line of lines) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [, local, remote, state, queues] = fields;
    const rx = Number.parseInt(queues!.split(':')[1] ?? '', 16);
    const listening = state === '0A';
    // A listening socket's rx_queue is its accept backlog, not bytes.
    entries.push({
      local: local!,
      remote: remote!,
      state: state!,
      inode: Number(fields[9]),
      queued: listening ? 0 : rx,
      listening,
    });
  }
  return entries;
}

// "0100007F:1F90" (IPv4, the address as a little-endian word) -> "127.0.0.1:8080"; IPv6 is shown
// as the kernel writes it, with the port decoded.
function decodeAddress(hex: string): string {
  const [ip = '', port = ''] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (ip.length !== 8) return `[${ip}]:${portNumber}`;
  const octets = [6, 4, 2, 0].map((at) => Number.parseInt(ip.slice(at, at + 2), 16));
  return `${octets.join('.')}:${portNumber}`;
}

// "Num RefCount Protocol Flags Type St Inode Path": Flags 00010000 (__SO_ACCEPTCON) is a listener.
function readUnix(path: string, wanted: ReadonlySet<number>) {
  const entries: { inode: number; listening: boolean; path: string | null }[] = [];
  for (const line of readTable(path).split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const inode = Number(fields[6]);
    if (fields.length < 7 || !wanted.has(inode)) continue;
    const listening = (Number.parseInt(fields[3]!, 16) & 0x10000) !== 0;
    entries.push({ inode, listening, path: fields.slice(7).join(' ') || null });
  }
  return entries;
}

// `ss -xan`: "u_str ESTAB RECV-Q SEND-Q LOCAL-PATH LOCAL-INODE PEER-PATH PEER-INODE", "*" for no path.
function readUnixLinks(): Map<number, { peer: number; queued: number }> | null {
  const result = spawnSync('ss', ['-xan'], {
    encoding: 'utf8',
    timeout: 2000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (result.status !== 0 || typeof result.stdout !== 'string') return null;
  const links = new Map<number, { peer: number; queued: number }>();
  for (const line of result.stdout.split('\n')) {
    const match = /^\S+\s+\S+\s+(\d+)\s+\d+\s+.*?\s(\d+)\s+\S.*?\s(\d+)\s*$/.exec(line);
    if (match) links.set(Number(match[2]), { peer: Number(match[3]), queued: Number(match[1]) });
  }
  return links;
}
