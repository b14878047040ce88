import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlockedProcess, Report } from '../../src/types.js';
import {
  commandOf,
  descendants,
  findBlocked,
  killAll,
  waitForPid,
  wchanOf,
  yesBlockedOnSleep,
} from '../hang/helpers.js';
import { BIN, FIXTURES, ROOT, runCli, waitFor } from '../helpers/index.js';
import { validate } from '../helpers/json-schema.js';

const SEED = path.join(FIXTURES, 'hang', 'seed-003.mjs');
const SCHEMA = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/report.schema.json'), 'utf8'));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) killAll([...descendants(child.pid!), child.pid!]);
});

interface Live {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  done: Promise<number | null>;
}

// Starts safe-run (or anything) with its stdin left open, collecting what it prints.
function startLive(command: string, args: string[], cwd = process.cwd()): Live {
  const child = spawn(command, args, {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, done };
}

// Pids and commands differ from run to run; the sentences must not.
function normalise(entries: readonly BlockedProcess[]): string[] {
  const names = new Map(entries.map((entry, i) => [String(entry.pid), `P${i}`]));
  return entries.map((entry) =>
    entry.explanation.replace(/\b\d{2,}\b/g, (pid) => names.get(pid) ?? 'P?').replace(/`[^`]*`/g, '`cmd`'),
  );
}

async function seedBlocked(root: number): Promise<number> {
  const parent = () => descendants(root).find((pid) => /seed-003\.mjs$/.test(commandOf(pid))) ?? root;
  return waitForPid(
    () => (/epoll/.test(wchanOf(parent())) ? findBlocked(root, /seed-003\.mjs child/, /pipe_write/) : null),
    20_000,
    'the seed-003 pair to block',
  );
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

// True when `pid` carries the same run marker as the stages of the safe-run process `safeRun`.
function markedBy(pid: number, safeRun: number): boolean {
  const marker = (p: number) => {
    try {
      return /SAFE_RUN_ID=[^\0]+/.exec(fs.readFileSync(`/proc/${p}/environ`, 'utf8'))?.[0] ?? null;
    } catch {
      return null;
    }
  };
  const stage = descendants(safeRun)
    .map(marker)
    .find((value) => value !== null);
  return stage !== undefined && marker(pid) === stage;
}

// Sockets safe-run listens on (an inspector port would be one): its socket fds among LISTEN sockets.
function listeningSockets(pid: number): string[] {
  const listening = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A')
      .map((fields) => fields[9]!),
  );
  const mine = fs.readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return '';
    }
  });
  return listening.filter((inode) => mine.includes(`socket:[${inode}]`));
}

// SigCgt in /proc/PID/status: the signals it has a handler for (SIGUSR1 is 10: bit 9).
function catchesSigusr1(pid: number): boolean {
  try {
    const mask = /SigCgt:\s*([0-9a-f]+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
    return (BigInt(`0x${mask}`) & 0x200n) !== 0n;
  } catch {
    return false;
  }
}

describe('seed 003 (parent waits for its child, child fills a stderr pipe)', () => {
  it('is reported as a deadlock naming both pids at a timeout, and inspect says the same', async () => {
    const run = startLive(process.execPath, [BIN, '--json', '--timeout', '10s', '--', 'node', SEED]);
    const child = await seedBlocked(run.child.pid!);
    const code = await run.done;
    expect(code).toBe(124);
    const report = JSON.parse(run.out()) as Report;
    expect(validate(report, SCHEMA)).toEqual([]);
    const stop = report.stages[0]!.stop!;
    expect(stop.deadlock?.pids).toEqual([report.stages[0]!.pid, child]);
    expect(stop.deadlock?.explanation).toMatch(
      /waits for child \d+ to exit; \d+ is blocked writing to stderr/,
    );
    expect(report.next).toMatch(/deadlocked/);

    const alone = startLive(process.execPath, [SEED]);
    await seedBlocked(alone.child.pid!);
    const inspected = await runCli(['inspect', String(alone.child.pid), '--json'], { deadlineMs: 20_000 });
    expect(inspected.code).toBe(0);
    const seen = JSON.parse(inspected.stdout) as {
      processes: BlockedProcess[];
      deadlock: { pids: number[] };
    };
    expect(seen.deadlock.pids).toHaveLength(2);
    expect(seen.deadlock.pids[0]).toBe(alone.child.pid);
    expect(normalise(seen.processes)).toEqual(normalise(stop.snapshot));
  }, 60_000);
});

describe('yes | sleep 100', () => {
  it('shows yes blocked on the pipe sleep never reads, the same at a stop and through inspect', async () => {
    const run = startLive(process.execPath, [
      BIN,
      '--json',
      '--timeout',
      '6s',
      '--',
      'sh',
      '-c',
      'yes | sleep 100',
    ]);
    await waitForPid(
      () => findBlocked(run.child.pid!, /^yes$/, /pipe_write/),
      20_000,
      'yes to fill the pipe',
    );
    expect(await run.done).toBe(124);
    const stop = (JSON.parse(run.out()) as Report).stages[0]!.stop!;
    const yes = stop.snapshot.find((entry) => entry.command === 'yes')!;
    const sleep = stop.snapshot.find((entry) => entry.command === 'sleep 100')!;
    expect(yes.peers?.map((peer) => peer.pid)).toEqual([sleep.pid]);
    expect(yes.explanation).toBe(
      `blocked writing to stdout, a pipe whose only reader, pid ${sleep.pid} \`sleep 100\`, never reads it`,
    );

    const alone = startLive('sh', ['-c', 'yes | sleep 100']);
    await yesBlockedOnSleep(alone.child.pid!, 20_000);
    const inspected = await runCli(['inspect', String(alone.child.pid), '--json'], { deadlineMs: 20_000 });
    const seen = JSON.parse(inspected.stdout) as { processes: BlockedProcess[] };
    expect(normalise(seen.processes)).toEqual(normalise(stop.snapshot));
  }, 40_000);
});

describe('processes that left their stage group', () => {
  it('are in the stop snapshot too, found by the run marker', async () => {
    // The subshell exits at once: the setsid'd tree is reparented, reachable only by the marker.
    const script = "(setsid sh -c 'yes | sleep 301' &); exec sleep 302";
    const run = startLive(process.execPath, [BIN, '--json', '--timeout', '6s', '--', 'sh', '-c', script]);
    const escaped = () =>
      allPids().find(
        (pid) => commandOf(pid) === 'yes' && /pipe_write/.test(wchanOf(pid)) && markedBy(pid, run.child.pid!),
      ) ?? null;
    await waitForPid(escaped, 20_000, 'the escaped yes to block');
    expect(await run.done).toBe(124);
    const snapshot = (JSON.parse(run.out()) as Report).stages[0]!.stop!.snapshot;
    expect(snapshot.map((entry) => entry.command).sort()).toEqual(
      ['sh -c yes | sleep 301', 'sleep 301', 'sleep 302', 'yes'].sort(),
    );
    expect(snapshot.find((entry) => entry.command === 'yes')?.stage).toBeNull();
    expect(snapshot.find((entry) => entry.command === 'yes')?.explanation).toMatch(
      /^blocked writing to stdout, a pipe whose only reader, pid \d+ `sleep 301`, never reads it$/,
    );
  }, 40_000);
});

describe('blame at a time limit', () => {
  it('blames the stage that was working, not tee waiting for its output', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-hang-'));
    const run = startLive(
      process.execPath,
      [BIN, '--json', '--timeout', '6s', '-c', 'sh -c "echo building; sleep 30" | tee build.log'],
      cwd,
    );
    await waitFor(
      'tee to wait',
      () => findBlocked(run.child.pid!, /^tee build\.log$/, /pipe_read/) !== null,
      20_000,
    );
    expect(await run.done).toBe(124);
    const report = JSON.parse(run.out()) as Report;
    expect(report.verdict.blamedStage).toBe(1);
    expect(report.verdict.reason).toMatch(/stage 2 "tee" was only waiting for input from stage 1/);
    expect(report.next).toMatch(/^stage 1 "sh" was stopped by a time limit/);
    expect(report.stages[1]!.stop?.waitingForStage).toBe(1);
  }, 40_000);
});

describe('looking at a run without ending it', () => {
  it('prints a report on SIGUSR1, opens no debugger port, and the run ends normally', async () => {
    const run = startLive(process.execPath, [BIN, '--', 'sh', '-c', 'read line; echo "got $line"']);
    const pid = run.child.pid!;
    await waitFor(
      'sh to read',
      () => findBlocked(pid, /^sh -c read/, /read|wait_woken|unix_stream/) !== null,
      20_000,
    );
    process.kill(pid, 'SIGUSR1');
    await waitFor('the SIGUSR1 report', () => run.err().includes("safe-run's stdin"), 20_000);
    expect(run.err()).toMatch(
      /waiting for input on stdin, which is safe-run's stdin: give it input or use --stdin null/,
    );
    expect(run.err()).not.toMatch(/Debugger listening/);
    expect(listeningSockets(pid)).toEqual([]);
    run.child.stdin!.end('hi\n');
    expect(await run.done).toBe(0);
    expect(run.out()).toBe('got hi\n');
  }, 40_000);

  it('answers a SIGUSR1 that comes while Node is still starting: no debugger port stays open, and the report comes once the run can give it', async () => {
    const run = startLive(process.execPath, [BIN, '--', 'sh', '-c', 'sleep 3093']);
    const pid = run.child.pid!;
    // The earliest moment a SIGUSR1 does not end the process: Node's own handler (the one that opens
    // its debugger) is in place. Before that the kernel's default action applies, as to any program.
    const deadline = Date.now() + 20_000;
    while (!catchesSigusr1(pid) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    process.kill(pid, 'SIGUSR1');
    await waitFor(
      'the SIGUSR1 report',
      () => /SIGUSR1, who waits for whom now[^\n]*\n.*sleep 3093/.test(run.err()),
      20_000,
    );
    // Node 20 may have opened its debugger before safe-run's first line ran: it is closed again.
    await waitFor('no listening socket', () => listeningSockets(pid).length === 0, 20_000);
    process.kill(pid, 'SIGTERM');
    expect(await run.done).toBe(143);
  }, 40_000);

  it('treats SIGQUIT like SIGTERM: report, teardown, exit 131', async () => {
    const run = startLive(process.execPath, [BIN, '--', 'sh', '-c', 'sleep 3091']);
    await waitFor('sleep', () => findBlocked(run.child.pid!, /^sleep 3091$/, /nanosleep/) !== null, 20_000);
    process.kill(run.child.pid!, 'SIGQUIT');
    expect(await run.done).toBe(131);
    expect(run.err()).toMatch(/safe-run received SIGQUIT/);
    // The stage was torn down, not left behind (it would be reparented, so look at every process).
    const left = fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && commandOf(Number(name)) === 'sleep 3091');
    // A zombie's cmdline reads empty, so only a living leftover matches.
    expect(left).toEqual([]);
  }, 40_000);

  it('says a stage reading a terminal is waiting for input from the terminal', async () => {
    const term = startLive('script', ['-qc', `${process.execPath} ${BIN} -- cat`, '/dev/null']);
    const root = term.child.pid!;
    await waitFor(
      'cat to read the terminal',
      () => findBlocked(root, /^cat$/, /tty|wait_woken/) !== null,
      20_000,
    );
    const inspected = await runCli(['inspect', String(root)], { deadlineMs: 20_000 });
    expect(inspected.stdout).toMatch(
      /`cat`: waiting for input from the terminal \(stdin, \/dev\/pts\/\d+\).*--stdin null/,
    );
    // safe-run and its watchdog are told as themselves; safe-run's own timers (the live view's) are its
    // work, so it gets no advice on clearing them.
    const line = (pattern: RegExp) => inspected.stdout.split('\n').find((text) => pattern.test(text)) ?? '';
    // How deep safe-run sits depends on whether `script`'s shell execs the command ($SHELL differs
    // between machines), so any indentation is accepted; it may be running or sleeping at the look.
    expect(line(/safe-run itself/)).toMatch(/^ +pid \d+ [RS] `.*`: safe-run itself, supervising the run: /);
    expect(line(/safe-run itself/)).not.toMatch(/clearInterval|unref/);
    expect(line(/safe-run-watchdog/)).toMatch(/: safe-run's watchdog: it waits for safe-run to exit/);
    term.child.stdin!.write('\x04');
    await term.done;
  }, 40_000);
});

describe('safe-run inspect', () => {
  it('shows control bytes of a command line as escapes, as the table does, never raw', async () => {
    const alone = startLive('sh', ['-c', 'sleep 3094', 'sh', '\x1b[31mred\x07']);
    await waitFor(
      'sleep to start',
      () => findBlocked(alone.child.pid!, /^sleep 3094$/, /nanosleep/) !== null,
      20_000,
    );
    const inspected = await runCli(['inspect', String(alone.child.pid)], { deadlineMs: 20_000 });
    expect(inspected.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(inspected.stdout).toContain('\\e[31mred\\x07');
  }, 40_000);

  it('refuses a bad process id with one line and exit 125', async () => {
    const result = await runCli(['inspect', 'abc']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      'safe-run: inspect: expected one process id, got "abc"; usage: safe-run inspect PID [--json] [--mask NAME]...\n',
    );
  });

  it('refuses a process id past pid_max as it was typed (it was rounded: "no process 100000000000000000000")', async () => {
    const result = await runCli(['inspect', '99999999999999999999']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      'safe-run: inspect: expected one process id, got "99999999999999999999"; usage: safe-run inspect PID [--json] [--mask NAME]...\n',
    );
  });
});
