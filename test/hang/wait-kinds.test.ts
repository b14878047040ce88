import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { descendants, findBlocked, killAll, lookAt, waitForPid, wchanOf } from './helpers.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) killAll([...descendants(child.pid!), child.pid!]);
});

function start(command: string, args: string[], cwd?: string): number {
  const child = spawn(command, args, { stdio: 'ignore', cwd });
  started.push(child);
  return child.pid!;
}

const fixture = (name: string) => path.join(FIXTURES, 'hang', name);

// Each thread's state letter and the CPU time it has used in user mode (clock ticks).
function threadStats(pid: number): { state: string; userTicks: number }[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { state: fields[0]!, userTicks: Number(fields[11]) };
      } catch {
        return { state: '', userTicks: 0 };
      }
    });
  } catch {
    return [];
  }
}

describe('threads', () => {
  it('a thread draining the pipe the main thread does not read is not a deadlock', async () => {
    const root = start(process.execPath, [fixture('thread-drain.mjs')]);
    const child = await waitForPid(
      () => findBlocked(root, /thread-drain\.mjs child/, /pipe_write/),
      20_000,
      'the child to fill the pipe',
    );
    const report = lookAt(root);
    expect(report.deadlock).toBeNull();
    const writer = report.processes.find((entry) => entry.pid === child)!;
    // Caught between two reads of the drain thread, or while it reads.
    expect(writer.wait === 'working' || /another of its threads may/.test(writer.explanation)).toBe(true);
    expect(report.processes.find((entry) => entry.pid === root)?.threads?.length).toBeGreaterThan(0);
  }, 40_000);

  it('a process whose thread spins is working, though its main thread waits in a futex', async () => {
    const root = start(process.execPath, [fixture('spin-thread.mjs')]);
    // The worker is in its loop once a thread has used half a second of CPU (its start-up alone,
    // compiling on other threads and waiting for them, is not a spin: under load a look taken then
    // found no thread running, rightly). A spinning thread is runnable at every look after that.
    await waitForPid(
      () =>
        /futex/.test(wchanOf(root)) &&
        threadStats(root).some(({ state, userTicks }) => state === 'R' && userTicks >= 50)
          ? root
          : null,
      20_000,
      'the main thread to wait and the worker to spin',
    );
    const entry = lookAt(root).processes.find((proc) => proc.pid === root)!;
    expect(entry.wait).toBe('working');
    expect(entry.explanation).toMatch(
      /^thread \d+ `node`: running: working, not blocked; the main thread: waiting on a lock or another thread \(futex\)$/,
    );
  }, 40_000);
});

describe('sockets', () => {
  it("finds seed 003 over Node's default stdio (a socketpair) with the bytes left unread", async () => {
    const root = start(process.execPath, [fixture('socket-seed.mjs')]);
    const child = await waitForPid(
      () =>
        /epoll/.test(wchanOf(root))
          ? findBlocked(root, /socket-seed\.mjs child/, /unix|sock|wait_for|stream/)
          : null,
      20_000,
      'the child to block on its stderr socket',
    );
    // The parent reads a first part, then pauses the stream: the state settles soon after.
    const report = await waitFor('the deadlock to be seen', () => {
      const look = lookAt(root);
      return look.deadlock !== null && look;
    });
    expect(report.deadlock?.pids).toEqual([root, child]);
    expect(report.deadlock?.kind).toBe('unread-output');
    const writer = report.processes.find((entry) => entry.pid === child)!;
    expect(writer.wait).toBe('unread-output');
    expect(writer.blocked?.target).toMatch(/^socket:\[\d+\]$/);
    expect(writer.blocked?.unread).toBeGreaterThan(0);
    expect(writer.explanation).toMatch(
      /blocked writing to stderr, a socket whose only reader, pid \d+ .*, never reads it \([\d,]+ B unread\)$/,
    );
  }, 40_000);
});

const hasPython = spawnSync('sh', ['-c', 'command -v python3']).status === 0;

describe.skipIf(!hasPython)('TCP in one tree', () => {
  it('a server and its client each waiting for the other to speak first is a deadlock', async () => {
    const root = start('python3', [fixture('tcp-pair.py')]);
    // Waits for the settled state; looks taken before it are checked in transient-looks.test.ts.
    const report = await waitFor(
      'both ends to wait in recv',
      () => {
        const look = lookAt(root);
        return look.deadlock?.kind === 'silent-peer' && look.processes.length === 2 && look;
      },
      40_000,
    );
    const client = report.processes.find((entry) => entry.pid !== root)!.pid;
    expect(report.deadlock?.pids).toEqual([root, client].sort((a, b) => a - b));
    expect(report.deadlock?.kind).toBe('silent-peer');
    const server = report.processes.find((entry) => entry.pid === root)!;
    expect(server.explanation).toMatch(
      new RegExp(`^deadlock: waiting for input on fd \\d+, a socket from pid ${client} \``),
    );
  }, 60_000);

  it('a client whose connection the server has not accepted yet is told so, and is no deadlock', async () => {
    const code = [
      'import os, socket, time',
      "server = socket.create_server(('127.0.0.1', 0))",
      'if os.fork() == 0:',
      "    socket.create_connection(('127.0.0.1', server.getsockname()[1])).recv(1)",
      'time.sleep(600)',
    ].join('\n');
    const root = start('python3', ['-c', code]);
    const client = await waitFor('the client to wait in recv', () => {
      const entry = lookAt(root).processes.find((proc) => proc.ppid === root);
      return entry?.blocked?.op === 'read' && /^socket:/.test(entry.blocked.target ?? '') && entry;
    });
    expect(client.wait).toBe('peer');
    expect(client.explanation).toMatch(
      /: waiting for the other side: its connection to 127\.0\.0\.1:\d+ is not accepted yet$/,
    );
    expect(lookAt(root).deadlock).toBeNull();
  }, 40_000);

  it('a client waiting on a server outside the tree is not a deadlock: nobody in the tree can answer', async () => {
    const serve =
      "import socket; s = socket.create_server(('127.0.0.1', 0)); print(s.getsockname()[1], flush=True); c, _ = s.accept(); c.recv(1)";
    const server = spawn('python3', ['-c', serve], { stdio: ['ignore', 'pipe', 'ignore'] });
    started.push(server);
    const port = await new Promise<string>((resolve) =>
      server.stdout!.once('data', (d) => resolve(`${d}`.trim())),
    );
    const talk = `import socket; c = socket.create_connection(('127.0.0.1', ${port})); c.recv(1)`;
    const root = start('python3', ['-c', talk]);
    // Until the server's accept() returns, the client is rightly "not accepted yet" (seen once in a
    // run at load 9): the look that counts comes after it.
    const look = await waitFor('the client to wait in recv on an accepted connection', () => {
      const entry = lookAt(root).processes.find((proc) => proc.pid === root);
      const waiting = entry?.blocked?.op === 'read' && /^socket:/.test(entry.blocked.target ?? '');
      return waiting && !entry.explanation.endsWith('is not accepted yet') && entry;
    });
    expect(look.wait).toBe('peer');
    expect(look.explanation).toMatch(
      /^reading fd \d+, a socket \(socket:\[\d+\]\): waiting for the other side, which no process of this tree holds$/,
    );
    expect(lookAt(root).deadlock).toBeNull();
  }, 40_000);
});

describe('what a wait is on, named', () => {
  it('names the path of a FIFO whose open waits for the other side', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-fifo-'));
    const fifo = path.join(dir, 'in.fifo');
    spawnSync('mkfifo', [fifo]);
    const root = start('cat', [fifo]);
    await waitForPid(
      () => (/wait_for_partner|fifo/.test(wchanOf(root)) ? root : null),
      20_000,
      'cat to open the FIFO',
    );
    const entry = lookAt(root).processes[0]!;
    expect(entry.wait).toBe('fifo-open');
    expect(entry.explanation).toBe(
      `opening the FIFO ${fifo} for reading: nobody has it open for writing, and open() waits until someone does`,
    );
  }, 40_000);

  it('names the pid holding a lock that a flock waits for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-lock-'));
    const lock = path.join(dir, 'lock');
    fs.writeFileSync(lock, '');
    const holder = start('flock', [lock, 'sleep', '300']);
    await waitForPid(
      () => descendants(holder).find((pid) => /nanosleep/.test(wchanOf(pid))) ?? null,
      20_000,
      'the lock to be taken',
    );
    const waiter = start('flock', [lock, 'true']);
    await waitForPid(
      () => (/lock/.test(wchanOf(waiter)) ? waiter : null),
      20_000,
      'the second flock to wait',
    );
    const entry = lookAt(waiter).processes[0]!;
    expect(entry.wait).toBe('lock');
    expect(entry.peers?.map((peer) => peer.pid)).toEqual([holder]);
    expect(entry.explanation).toBe(
      `waiting for a lock on ${lock}, held by pid ${holder} \`flock ${lock} sleep 300\``,
    );
  }, 40_000);

  it('says a Node process that printed its last line is kept alive by an open server', async () => {
    const code = "require('net').createServer().listen(0, '127.0.0.1', () => console.log('done'))";
    const root = start(process.execPath, ['-e', code]);
    const look = await waitFor('the server to listen', () => {
      const entry = lookAt(root).processes[0];
      return entry?.wait === 'server' && entry;
    });
    expect(look.explanation).toMatch(
      /^kept alive by an open server \(listening on 127\.0\.0\.1:\d+\): .*server\.close\(\)/,
    );
  }, 40_000);

  it('says a Node process is idle with a timer pending', async () => {
    const root = start(process.execPath, ['-e', 'setInterval(() => {}, 600000)']);
    const look = await waitFor('the timer to be all that is left', () => {
      const entry = lookAt(root).processes[0];
      return entry?.wait === 'timer' && entry;
    });
    expect(look.explanation).toMatch(/^idle with a timer pending \(next in \d+ ms\): .*clearInterval/);
  }, 40_000);

  it('gives the Node timer advice to Node only: a select with a timeout in perl is its own time limit', async () => {
    const root = start('perl', ['-e', 'select(undef, undef, undef, 600)']);
    const look = await waitFor('the select to be all that is left', () => {
      const entry = lookAt(root).processes[0];
      return entry?.wait === 'timer' && entry;
    });
    expect(look.explanation).toMatch(
      /^idle with a timer pending.*: it wakes by itself; .*a time limit of its own/,
    );
    expect(look.explanation).not.toContain('clearInterval');
  }, 40_000);
});
