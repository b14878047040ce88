import { describe, expect, it } from 'vitest';
import { deadlockAdvice } from '../../src/hang/advice.js';
import type { MemberView, TreeData } from '../../src/hang/analyze.js';
import { buildHangReport, waitingForStage } from '../../src/hang/hang-report.js';
import type { OpenFd, ProcView } from '../../src/hang/proc-view.js';
import { decodeSyscall, opFromWchan } from '../../src/hang/syscalls.js';

// Synthetic /proc: a process is built from its state, its /proc/PID/syscall text and its fds.
function fd(
  fd: number,
  kind: OpenFd['kind'],
  key: string,
  end: OpenFd['end'],
  link = `pipe:[${key}]`,
): OpenFd {
  return { fd, kind, key, end, link };
}

function proc(
  pid: number,
  ppid: number,
  command: string,
  syscall: string | null,
  fds: OpenFd[],
  extra: Partial<MemberView> = {},
): MemberView {
  return {
    pid,
    ppid,
    pgid: ppid,
    command,
    state: syscall === 'running' ? 'R' : 'S',
    wchan: null,
    syscall: syscall === null ? null : decodeSyscall(syscall, 'x64'),
    path: null,
    polled: null,
    fds,
    epolls: {},
    // Read and never changed: what is built here holds at one moment.
    runMark: 0,
    threads: [],
    stage: 1,
    ...extra,
  };
}

function tree(members: MemberView[], context: ProcView[] = [], safeRunStdin: string | null = null): TreeData {
  return {
    members,
    context,
    safeRunPid: context[0]?.pid ?? null,
    safeRunStdin,
    sockets: new Map(),
    locks: new Map(),
    complete: true,
  };
}

const WRITE_FD1 = '1 0x1 0x7f 0x2000 0x0 0x0 0x0 0x7ffc 0x7f12';
const READ_FD0 = '0 0x0 0x7f 0x2000 0x0 0x0 0x0 0x7ffc 0x7f12';
const WAIT_ANY = '61 0xffffffffffffffff 0x7ffc 0x0 0x0 0x0 0x0 0x7ffc 0x7f12';
const SLEEP = '230 0x0 0x0 0x7ffc 0x7ffc 0x0 0x0 0x7ffc 0x7f12';
// epoll_pwait(fd 14, events, 1024, -1): no timeout.
const EPOLL_FOREVER = '281 0xe 0x7ffc 0x400 0xffffffff 0x0 0x8 0x7ffc 0x7f12';

const yesSleep = tree([
  proc(40, 1, 'sh -c yes | sleep 100', WAIT_ANY, [fd(1, 'pipe', 'out', 'write')]),
  proc(41, 40, 'yes', WRITE_FD1, [fd(1, 'pipe', 'p', 'write')]),
  proc(42, 40, 'sleep 100', SLEEP, [fd(0, 'pipe', 'p', 'read')]),
]);

const seed003 = tree([
  proc(
    50,
    1,
    'node parent.mjs',
    EPOLL_FOREVER,
    [
      fd(14, 'other', 'ep', 'both', 'anon_inode:[eventpoll]'),
      fd(15, 'pipe', 'self', 'read'),
      fd(16, 'pipe', 'self', 'write'),
      fd(19, 'fifo', 'err', 'read', '/tmp/x (deleted)'),
    ],
    { epolls: { 14: [15] } },
  ),
  proc(51, 50, 'node child.mjs', '1 0x2 0x7f 0x100000 0x0 0x0 0x0 0x7ffc 0x7f12', [
    fd(2, 'fifo', 'err', 'write', '/tmp/x (deleted)'),
  ]),
]);

const twoPipes = tree([
  proc(60, 1, 'a', WRITE_FD1, [fd(0, 'pipe', 'ba', 'read'), fd(1, 'pipe', 'ab', 'write')]),
  proc(61, 1, 'b', WRITE_FD1, [fd(0, 'pipe', 'ab', 'read'), fd(1, 'pipe', 'ba', 'write')]),
]);

const safeRun: ProcView = {
  ...proc(10, 1, 'safe-run', EPOLL_FOREVER, [
    fd(0, 'pipe', 'in', 'read'),
    fd(7, 'fifo', 'o', 'read', '/d/o (deleted)'),
  ]),
  stage: null,
} as MemberView;

const cases: {
  title: string;
  data: TreeData;
  expected: Record<number, RegExp>;
  deadlock: number[] | null;
}[] = [
  {
    title: 'yes blocked on the pipe that sleep never reads',
    data: yesSleep,
    expected: {
      40: /^waiting for its children \(41 `yes`, 42 `sleep 100`\) to exit$/,
      41: /^blocked writing to stdout, a pipe whose only reader, pid 42 `sleep 100`, never reads it$/,
      42: /^sleeping \(clock_nanosleep\)/,
    },
    deadlock: null,
  },
  {
    title: "seed 003: the parent waits for the child, the child for the parent's read",
    data: seed003,
    expected: {
      50: /^deadlock: waiting for child 51 `node child.mjs` to exit/,
      51: /^deadlock: blocked writing to stderr, a pipe whose only reader, pid 50 `node parent.mjs`, never reads it$/,
    },
    deadlock: [50, 51],
  },
  {
    title: 'two processes each writing into the full pipe the other one writes into',
    data: twoPipes,
    expected: { 60: /^deadlock: blocked writing/, 61: /^deadlock: blocked writing/ },
    deadlock: [60, 61],
  },
  {
    title: "a stage reading safe-run's own stdin",
    data: tree([proc(70, 10, 'cat', READ_FD0, [fd(0, 'pipe', 'in', 'read')])], [safeRun], 'in'),
    expected: {
      70: /^waiting for input on stdin, which is safe-run's stdin: give it input or use --stdin null$/,
    },
    deadlock: null,
  },
  {
    title: 'a stage reading a terminal',
    data: tree([proc(71, 10, 'cat', READ_FD0, [fd(0, 'terminal', 'tty', 'both', '/dev/pts/3')])]),
    expected: { 71: /^waiting for input from the terminal \(stdin, \/dev\/pts\/3\).*--stdin null/ },
    deadlock: null,
  },
  {
    title: "a stage writing to safe-run's own FIFO is not said to be stuck on a stage",
    data: tree([proc(72, 10, 'yes', WRITE_FD1, [fd(1, 'fifo', 'o', 'write', '/d/o (deleted)')])], [safeRun]),
    expected: { 72: /^writing to stdout, a pipe to safe-run, which reads it$/ },
    deadlock: null,
  },
  {
    title: 'a reader that holds the only write end itself never sees end of file',
    data: tree([proc(73, 1, 'loop', READ_FD0, [fd(0, 'pipe', 'q', 'read'), fd(5, 'pipe', 'q', 'write')])]),
    expected: { 73: /^deadlock: waiting for input on stdin, a pipe whose only writer is itself/ },
    deadlock: [73],
  },
  {
    title: 'what the kernel hides is said to be unknown',
    data: tree([proc(74, 1, 'other-user', null, [], { wchan: 'anon_pipe_write' })]),
    expected: { 74: /^blocked \(write\); on what is unknown: \/proc\/74\/syscall is not readable/ },
    deadlock: null,
  },
  {
    title: 'running and exited processes are not blocked',
    data: tree([proc(75, 1, 'busy', 'running', []), proc(76, 1, 'done', null, [], { state: 'Z' })]),
    expected: { 75: /^running/, 76: /^exited/ },
    deadlock: null,
  },
  {
    title: 'a reader of a pipe whose write end no process read holds waits for someone unseen',
    data: tree([proc(77, 1, 'cat', READ_FD0, [fd(0, 'pipe', 'lost', 'read')])]),
    expected: {
      77: /^reading stdin, a pipe \(pipe:\[lost\]\): waiting for the other side, which no process/,
    },
    deadlock: null,
  },
  {
    title: 'no deadlock is claimed while another process of the tree runs: it may hold the pipes',
    data: tree([...twoPipes.members, proc(62, 1, 'busy', 'running', [])]),
    expected: { 60: /^blocked writing/, 61: /^blocked writing/ },
    deadlock: null,
  },
  {
    title: 'no deadlock is claimed when a second reading found a member moved',
    data: { ...twoPipes, unsettled: [61] },
    expected: { 60: /^blocked writing/, 61: /^blocked writing/ },
    deadlock: null,
  },
  {
    title: 'no deadlock is claimed when a thread of a member could not be read still',
    data: tree([twoPipes.members[0]!, { ...twoPipes.members[1]!, runMark: null }]),
    expected: { 60: /^blocked writing/ },
    deadlock: null,
  },
];

describe('the wait-for graph and its sentences', () => {
  for (const { title, data, expected, deadlock } of cases) {
    it(title, () => {
      const report = buildHangReport(data);
      for (const [pid, pattern] of Object.entries(expected)) {
        expect(report.processes.find((entry) => entry.pid === Number(pid))?.explanation).toMatch(pattern);
      }
      expect(report.deadlock?.pids ?? null).toEqual(deadlock);
    });
  }

  it('names a deadlock member by member', () => {
    expect(buildHangReport(seed003).deadlock?.explanation).toBe(
      'pid 50 waits for child 51 to exit; 51 is blocked writing to stderr, a pipe only 50 can read',
    );
  });

  it('gives each blocked process its op, fd and target, and the peers of a pipe', () => {
    const yes = buildHangReport(yesSleep).processes.find((entry) => entry.pid === 41)!;
    expect(yes.blocked).toEqual({ op: 'write', fd: 1, target: 'pipe:[p]', unread: null });
    expect(yes.peers).toEqual([{ pid: 42, command: 'sleep 100', fds: [0], reading: false, safeRun: false }]);
    const sh = buildHangReport(yesSleep).processes.find((entry) => entry.pid === 40)!;
    expect(sh.blocked).toEqual({ op: 'wait', fd: null, target: 'any child', unread: null });
  });

  it('counts a reader that is in read() on the pipe as reading', () => {
    const data = tree([
      proc(80, 1, 'yes', WRITE_FD1, [fd(1, 'pipe', 'p', 'write')]),
      proc(81, 1, 'slow', READ_FD0, [fd(0, 'pipe', 'p', 'read')]),
    ]);
    const yes = buildHangReport(data).processes.find((entry) => entry.pid === 80)!;
    expect(yes.peers?.[0]?.reading).toBe(true);
    expect(yes.explanation).toMatch(/reader is reading it/);
  });
});

describe('which stage a time limit should blame', () => {
  it('says a stage only waited for input from an earlier stage', () => {
    const data = tree([
      proc(90, 1, 'sh -c "echo building; sleep 30"', WAIT_ANY, [fd(1, 'pipe', 'p', 'write')], { stage: 1 }),
      proc(91, 90, 'sleep 30', SLEEP, [fd(1, 'pipe', 'p', 'write')], { stage: 1 }),
      proc(92, 1, 'tee build.log', READ_FD0, [fd(0, 'pipe', 'p', 'read')], { stage: 2 }),
    ]);
    const report = buildHangReport(data);
    expect(waitingForStage(report, 2)).toBe(1);
    expect(waitingForStage(report, 1)).toBeNull();
  });
});

describe('reading /proc/PID/syscall', () => {
  it.each([
    ['running', 'running'],
    [WRITE_FD1, { name: 'write', op: 'write', fd: 1 }],
    [WAIT_ANY, { name: 'wait4', op: 'wait', args: [-1, 0x7ffc, 0, 0, 0, 0] }],
    ['999 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0', { name: null, op: null }],
    ['1 zz 0x0', { name: 'write', op: 'write', fd: null }],
  ])('decodes %s', (raw, expected) => {
    const decoded = decodeSyscall(raw, 'x64');
    if (typeof expected === 'string') expect(decoded).toBe(expected);
    else expect(decoded).toMatchObject(expected);
  });

  it('knows no names off x86_64 and falls back on the wait channel', () => {
    expect(decodeSyscall(WRITE_FD1, 'arm64')).toMatchObject({ name: null, op: null, fd: null });
    expect(opFromWchan('anon_pipe_write')).toBe('write');
    expect(opFromWchan('pipe_read')).toBe('read');
    expect(opFromWchan('do_wait')).toBe('wait');
    expect(opFromWchan('mystery')).toBe('other');
  });
});

describe('the kind of a deadlock, and the advice chosen by it', () => {
  const READ_FD3 = '0 0x3 0x7f 0x2000 0x0 0x0 0x0 0x7ffc 0x7f12';
  const FLOCK_FD3 = '73 0x3 0x2 0x0 0x0 0x0 0x0 0x7ffc 0x7f12';
  const cases: { title: string; data: TreeData; kind: string; advice: RegExp }[] = [
    {
      title: 'a writer whose reader waits for it: read while waiting',
      data: seed003,
      kind: 'unread-output',
      advice: /must read that pipe while it waits/,
    },
    {
      title: 'a parent that waits for a child reading the stdin it never closed: close it',
      data: tree([
        proc(100, 1, 'python3 run.py', WAIT_ANY, [fd(5, 'pipe', 'in', 'write')]),
        proc(101, 100, 'cat', READ_FD0, [fd(0, 'pipe', 'in', 'read')]),
      ]),
      kind: 'unclosed-input',
      advice: /close its end of the pipe/,
    },
    {
      title: 'two ends of a socket that both wait to be told something: fix who speaks first',
      data: {
        ...tree([
          proc(110, 1, 'client', READ_FD3, [fd(3, 'socket', '9:1', 'both', 'socket:[1]')]),
          proc(111, 1, 'server', READ_FD3, [fd(3, 'socket', '9:2', 'both', 'socket:[2]')]),
        ]),
        sockets: new Map([
          [1, { inode: 1, proto: 'unix' as const, peer: 2, queued: 0, listening: false, address: null }],
          [2, { inode: 2, proto: 'unix' as const, peer: 1, queued: 0, listening: false, address: null }],
        ]),
      },
      kind: 'silent-peer',
      advice: /wait for the other to send first/,
    },
    {
      title: 'a child waiting for a lock its waiting parent holds: release before waiting',
      data: {
        ...tree([
          proc(121, 1, 'flock /tmp/l sh', WAIT_ANY, [fd(3, 'file', '2049:77', 'read', '/tmp/l')]),
          proc(120, 121, 'flock /tmp/l true', FLOCK_FD3, [fd(3, 'file', '2049:77', 'read', '/tmp/l')]),
        ]),
        locks: new Map([['08:01:77', [121]]]),
      },
      kind: 'lock',
      advice: /release them before waiting/,
    },
  ];
  for (const { title, data, kind, advice } of cases) {
    it(title, () => {
      const deadlock = buildHangReport(data).deadlock;
      expect(deadlock?.kind).toBe(kind);
      expect(deadlockAdvice(deadlock!.kind)).toMatch(advice);
    });
  }

  it('names the holder of a lock in the sentence', () => {
    const data = {
      ...tree([proc(130, 1, 'flock /tmp/l true', FLOCK_FD3, [fd(3, 'file', '2049:77', 'read', '/tmp/l')])]),
      locks: new Map([['08:01:77', [131]]]),
    };
    const entry = buildHangReport(data).processes[0]!;
    expect(entry.wait).toBe('lock');
    expect(entry.explanation).toBe('waiting for a lock on /tmp/l, held by pid 131 `?`');
  });
});
