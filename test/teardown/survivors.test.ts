import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { teardownFixture } from '../helpers/processes.js';

// Each way a process can try to outlive safe-run, run RUNS times across the ways a run ends (normal end,
// --timeout, SIGTERM and SIGKILL of safe-run), then watched for WATCH_MS after safe-run is gone: every
// escapee still alive then is a survivor. The default size is for CI; the full one (issue 26: 20 runs,
// a minute each) is SAFE_RUN_SURVIVOR_RUNS=20 SAFE_RUN_SURVIVOR_WATCH_MS=60000. Each safe-run runs under
// reaper.pl, a subreaper that reaps the hoppers' dead generations, which PID 1 of this VM never does.
const RUNS = Number(process.env.SAFE_RUN_SURVIVOR_RUNS ?? 3);
const WATCH_MS = Number(process.env.SAFE_RUN_SURVIVOR_WATCH_MS ?? 1000);
const ENDINGS = ['normal', 'timeout', 'sigterm', 'sigkill'] as const;
type Ending = (typeof ENDINGS)[number];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-survivors-'));
const HOPPER = teardownFixture('hopper.pl');
// A hopper ends by itself at a deadline (seconds since the epoch) given on its command line: the
// longest a trial can need it (a minute for safe-run to start and end, then the watch), at most the
// 120 s hopper.pl allows, so that a killed test run leaves no hopper behind for long.
const HOPPER_LIFE_S = Math.min(120, 60 + Math.ceil(WATCH_MS / 1000) + 5);

// Whether safe-run's stages get a cgroup of the run's own here (root, or a delegated cgroup v2 subtree).
const hasCgroup = /0::\S*\/safe-run-/.test(
  spawnSync(process.execPath, [BIN, '-q', '--no-facts', '--', 'cat', '/proc/self/cgroup'], {
    encoding: 'utf8',
  }).stdout,
);

// The escapees that do not hop say they started by creating the file $ARGV[0], then sleep.
const STARTED = 'open F, q(>), shift; close F; sleep 300';

interface EscapeClass {
  name: string;
  // The safe-run arguments after the ending's own; `hold` is how long the stage lives on its own,
  // `until` when a hopper ends by itself.
  args(token: string, beat: string, hold: string, until: number): string[];
  hops: boolean;
  // Only where it can be caught: what needs the run's cgroup.
  needsCgroup(ending: Ending): boolean;
}

const CLASSES: EscapeClass[] = [
  {
    name: 'leaves the group, not the session, environment cleared',
    args: (token, beat, hold) => [
      '--',
      'bash',
      '-c',
      `set -m; env -i perl -e '${STARTED}' ${beat} ${token} >/dev/null 2>&1 & sleep ${hold}`,
    ],
    hops: false,
    needsCgroup: () => false,
  },
  {
    name: 'env -i setsid holder of the pipe between two stages',
    args: (token, beat, hold) => [
      '-c',
      `sh -c 'env -i setsid perl -e "${STARTED}" ${beat} ${token} & sleep ${hold}' | cat`,
    ],
    hops: false,
    needsCgroup: () => false,
  },
  {
    name: 'fork-and-setsid hopper at 1 ms, marker kept',
    args: (_, beat, hold, until) => [
      '--',
      'sh',
      '-c',
      `perl ${HOPPER} ${beat} ${until} >/dev/null 2>&1 & sleep ${hold}`,
    ],
    hops: true,
    // After a SIGKILL of safe-run only the watchdog's grep of /proc is left, slower than a hop.
    needsCgroup: (ending) => ending === 'sigkill',
  },
  {
    name: 'fork-and-setsid hopper at 1 ms, environment cleared',
    args: (_, beat, hold, until) => [
      '--',
      'sh',
      '-c',
      `env -i setsid perl ${HOPPER} ${beat} ${until} >/dev/null 2>&1 & sleep ${hold}`,
    ],
    hops: true,
    needsCgroup: () => true,
  },
];

function withToken(token: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(token)) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1');
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const readBeat = (beat: string) => (fs.existsSync(beat) ? fs.readFileSync(beat, 'utf8') : null);

// A hopper is alive while the pid in its file keeps changing.
async function hopping(beat: string): Promise<boolean> {
  const before = readBeat(beat);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = readBeat(beat);
  return after !== null && after !== before;
}

async function survives(kind: EscapeClass, token: string, beat: string): Promise<boolean> {
  return kind.hops ? hopping(beat) : withToken(token).length > 0;
}

// A survivor must not outlive the test: SIGKILL to each pid seen, until none is left.
async function cleanUp(token: string, beat: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const pids = withToken(token);
    const hopper = Number(readBeat(beat));
    if (hopper > 1) pids.push(hopper);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    if (withToken(token).length === 0 && !(await hopping(beat))) return;
  }
}

function lines(child: ChildProcess): () => string[] {
  let text = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    text += chunk;
  });
  return () => text.split('\n').filter((line) => line !== '');
}

// Whether the escapee started at all, whether it survived, and whether a hopper was looked at too late
// to tell (after its own deadline, when it has ended by itself: that proves nothing).
async function trial(
  kind: EscapeClass,
  ending: Ending,
  tag: string,
): Promise<{ started: boolean; survived: boolean; late: boolean }> {
  const token = `survivor-${tag}`;
  // Written split in the command line, so that only the escapee's argv holds the token whole, not
  // reaper.pl's, safe-run's or the stage's.
  const written = `${token.slice(0, 5)}""${token.slice(5)}`;
  const beat = path.join(scratch, `${tag}.beat`);
  const hold = ending === 'normal' ? '0.3' : '30';
  const limit = ending === 'timeout' ? ['--timeout', '1s'] : [];
  const until = Math.ceil(Date.now() / 1000) + HOPPER_LIFE_S;
  const args = kind.args(written, beat, hold, until);
  const argv = [process.execPath, BIN, '--no-facts', '-q', ...limit, ...args];
  const reaper = spawn('perl', [teardownFixture('reaper.pl'), ...argv], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const said = lines(reaper);
  try {
    const pid = Number((await waitFor('safe-run to start', () => said()[0], 30_000))!);
    // Signalled once the escapee runs; the other endings come by themselves, maybe before it starts
    // (a time limit under load), which the trial then reports.
    if (ending === 'sigterm' || ending === 'sigkill') {
      await waitFor('the escapee to start', () => fs.existsSync(beat), 60_000);
      process.kill(pid, ending === 'sigterm' ? 'SIGTERM' : 'SIGKILL');
    }
    await waitFor('safe-run to end', () => said().length > 1, 60_000);
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
    const survived = await survives(kind, token, beat);
    const late = kind.hops && Date.now() >= (until - 1) * 1000;
    return { survived, started: fs.existsSync(beat), late };
  } finally {
    await cleanUp(token, beat);
    reaper.stdin!.end();
  }
}

describe('nothing a stage starts outlives safe-run', () => {
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it(`${RUNS} runs of each escape, across the endings, leave no survivor ${WATCH_MS} ms later`, async () => {
    const counts = await Promise.all(
      CLASSES.map(async (kind, k) => {
        const endings = ENDINGS.filter((ending) => hasCgroup || !kind.needsCgroup(ending));
        const count = {
          escape: kind.name,
          runs: 0,
          started: 0,
          survivors: 0,
          late: 0,
          survivedAfter: [] as Ending[],
        };
        for (let i = 0; i < RUNS && endings.length > 0; i++) {
          const ending = endings[i % endings.length]!;
          const result = await trial(kind, ending, `${k}-${i}-${ending}-${process.pid}`);
          count.runs += 1;
          if (result.started) count.started += 1;
          if (result.survived) {
            count.survivors += 1;
            count.survivedAfter.push(ending);
          }
          if (result.late) count.late += 1;
        }
        return count;
      }),
    );
    console.log(`survivors (cgroup: ${hasCgroup ? 'yes' : 'no'}):`, counts);
    expect(counts.filter((count) => count.survivors > 0)).toEqual([]);
    // A class whose escapee never started proves nothing.
    expect(counts.filter((count) => count.runs > 0 && count.started === 0)).toEqual([]);
    // A hopper looked at after its own deadline had ended by itself: the trial could not tell.
    expect(counts.filter((count) => count.late > 0)).toEqual([]);
  }, 3_600_000);
});
