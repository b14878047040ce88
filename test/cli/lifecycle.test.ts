import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aliveByCommand as alive, BIN, FIXTURES, runCli, runJson, waitFor } from '../helpers/index.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const needle of cleanup.splice(0)) {
    for (const pid of alive(needle)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
});

// A sleep whose command line no other run of this suite shares: other clones and workers on the same
// machine run the same tests at the same time, and a scan by command line must never see (or kill)
// their processes. The fraction is this worker's pid, unique among live processes.
function unique(seconds: number): string {
  const text = `sleep ${seconds}.${process.pid}`;
  cleanup.push(text);
  return text;
}

describe('time limits and teardown', () => {
  it('stops a pipeline at its --timeout with exit 124 and says which limit fired', async () => {
    const sleep = unique(3061);
    const { result, report } = await runJson(['--timeout', '1s', '--', ...sleep.split(' ')], {
      deadlineMs: 20_000,
    });
    expect(result.code).toBe(124);
    expect(report.stages[0]!.status).toBe('timeout');
    expect(report.stages[0]!.stop?.reason).toMatch(/pipeline timeout \(1\.00s\)/);
    expect(report.stages[0]!.stop?.signals).toEqual(['SIGTERM']);
    await waitFor('the sleep to be gone', () => alive(sleep).length === 0);
  });

  it('SIGKILLs a stage that ignores SIGTERM after --kill-after, and leaves nothing', async () => {
    const sleep = unique(3062);
    const { result, report } = await runJson(
      ['--timeout', '500ms', '--kill-after', '500ms', '--', 'sh', '-c', `trap '' TERM; ${sleep}`],
      { deadlineMs: 20_000 },
    );
    expect(result.code).toBe(124);
    expect(report.stages[0]!.stop?.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(report.stages[0]!.signal).toBe('SIGKILL');
    await waitFor('the sleep to be gone', () => alive(sleep).length === 0);
  });

  it('finds and kills a grandchild that called setsid, and lists it', async () => {
    const escaped = unique(3063);
    const { result, report } = await runJson(
      ['--timeout', '1s', '--', 'sh', '-c', `setsid ${escaped} & sleep 30`],
      {
        deadlineMs: 20_000,
      },
    );
    expect(result.code).toBe(124);
    const leftover = report.leftovers.find((item) => item.command === escaped);
    expect(leftover?.how).toMatch(/setsid/);
    expect(leftover?.action).toBe('killed');
    await waitFor('the escaped sleep to be gone', () => alive(escaped).length === 0);
  });

  it('delivers the output and returns when a background process keeps the pipe open, naming and killing it', async () => {
    const holder = unique(3064);
    const { result, report } = await runJson(
      ['--drain-timeout', '300ms', '--', 'sh', '-c', `${holder} & echo hi`],
      {
        deadlineMs: 20_000,
      },
    );
    expect(result.code).toBe(0);
    expect(report.stages[0]!.status).toBe('ok');
    expect(report.stages[0]!.stdout.text).toBe('hi\n');
    expect(report.warnings.join('\n')).toMatch(new RegExp(`held by \\d+ \\(${holder}\\)`));
    expect(report.leftovers.map((item) => item.command)).toContain(holder);
    await waitFor('the holder to be gone', () => alive(holder).length === 0);
  });

  it('keeps a deliberate background process with --leftovers keep, and says so', async () => {
    const daemon = unique(3065);
    const { result, report } = await runJson(
      [
        '--drain-timeout',
        '300ms',
        '--leftovers',
        'keep',
        '--',
        'sh',
        '-c',
        `${daemon} >/dev/null 2>&1 & echo started`,
      ],
      { deadlineMs: 20_000 },
    );
    expect(result.code).toBe(0);
    const kept = report.leftovers.find((item) => item.command === daemon);
    expect(kept?.action).toBe('kept');
    expect(alive(daemon).length).toBe(1);
  });

  it('tears down a tree of 200 processes', async () => {
    const leaf = unique(3066);
    const tree = path.join(FIXTURES, 'lifecycle', 'tree.sh');
    // 14 + 14*14 = 210 processes below the stage leader, 196 of them leaves. The fixture stays busy
    // until all 196 leaves run, so the idle limit counts from a finished tree, however long it took.
    let ended = false;
    const running = runJson(['--idle-timeout', '2s', '--', tree, '14', '2', leaf.split(' ')[1]!, '196'], {
      deadlineMs: 120_000,
    }).finally(() => {
      ended = true;
    });
    let seen = 0;
    await waitFor(
      'the whole tree to start',
      () => {
        seen = Math.max(seen, alive(leaf).length);
        return seen === 196 || ended;
      },
      120_000,
    );
    const { result, report } = await running;
    expect(report.stages[0]!.stdout.text).toBe('ready\n');
    expect(seen).toBe(196);
    expect(result.code).toBe(124);
    await waitFor('every leaf to be gone', () => alive(leaf).length === 0);
  });

  it('stops the other stages with --fail-fast when one fails', async () => {
    const sleep = unique(3067);
    const { result, report } = await runJson(['--fail-fast', '-c', `${sleep} | sh -c 'exit 3'`], {
      deadlineMs: 20_000,
    });
    expect(result.code).toBe(3);
    expect(report.stages.map((stage) => stage.status)).toEqual(['cancelled', 'failed']);
    expect(report.verdict.blamedStage).toBe(2);
  });
});

describe('idle timeout', () => {
  it('fires on silence', async () => {
    const sleep = unique(3068);
    const { result, report } = await runJson(['--idle-timeout', '500ms', '--', ...sleep.split(' ')], {
      deadlineMs: 20_000,
    });
    expect(result.code).toBe(124);
    expect(report.stages[0]!.stop?.reason).toMatch(/idle timeout/);
  });

  it('does not fire on a steady trickle, seen or only flowing between stages', async () => {
    const trickle = "sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do echo $i; sleep 0.2; done'";
    const seen = await runJson(['--idle-timeout', '1500ms', '-c', `${trickle} | cat`], {
      deadlineMs: 20_000,
    });
    expect(seen.result.code).toBe(0);
    const hidden = await runJson(['--idle-timeout', '1500ms', '-c', `${trickle} | cat | wc -l`], {
      deadlineMs: 20_000,
    });
    expect(hidden.result.code).toBe(0);
    expect(hidden.report.stages[2]!.stdout.text?.trim()).toBe('10');
  });
});

describe('signals to safe-run', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`on ${signal}: cancels the stages, prints the JSON report, exits ${code}, leaves nothing`, async () => {
      const sleep = unique(signal === 'SIGINT' ? 3069 : 3070);
      let pid = -1;
      const running = runCli(['--json', '--no-facts', '-c', `${sleep} | cat`], {
        deadlineMs: 20_000,
        onStart: (p) => {
          pid = p;
        },
      });
      await waitFor('the stage to start', () => alive(sleep).length === 1);
      process.kill(pid, signal);
      const result = await running;
      expect(result.code).toBe(code);
      const report = JSON.parse(result.stdout);
      expect(report.stages.map((stage: { status: string }) => stage.status)).toEqual([
        'cancelled',
        'cancelled',
      ]);
      await waitFor('the stages to be gone', () => alive(sleep).length === 0);
    });
  }

  it('on SIGKILL of safe-run: no stage process survives, escaped ones included', async () => {
    const stage = unique(3071);
    const escaped = unique(3072);
    let pid = -1;
    const running = runCli(['--no-facts', '-c', `sh -c 'setsid ${escaped} & ${stage}' | cat`], {
      deadlineMs: 20_000,
      onStart: (p) => {
        pid = p;
      },
    });
    await waitFor('the stages to start', () => alive(stage).length === 1 && alive(escaped).length === 1);
    process.kill(pid, 'SIGKILL');
    await running;
    await waitFor(
      'the watchdog to kill everything',
      () => alive(stage).length === 0 && alive(escaped).length === 0,
    );
  });
});

describe('why a stopped pipeline was stuck', () => {
  it('records who was blocked on what when the timeout fired', async () => {
    const sleep = unique(3073);
    // The first stage (bash, so that the second keeps the name "sh") becomes `yes` only once the
    // second stage's sleep runs, and its polling until then is activity: the idle limit counts from a
    // pipeline that is set up (the sleep sleeping, yes blocked on the full pipe), however slowly.
    const gate = `until pgrep -f "^${sleep}$" >/dev/null; do :; done; exec yes`;
    const { report } = await runJson(['--idle-timeout', '1s', '-c', `bash -c '${gate}' | sh -c '${sleep}'`], {
      deadlineMs: 60_000,
    });
    expect(report.stages[0]!.status).toBe('timeout');
    const yes = report.stages[0]!.stop!.snapshot;
    expect(yes.map((proc) => proc.command)).toEqual(['yes']);
    expect(yes[0]!.blocked).toMatchObject({ op: 'write', fd: 1 });
    expect(yes[0]!.explanation).toMatch(/^blocked writing to stdout, a pipe whose (only )?reader/);
    const sh = report.stages[1]!.stop!.snapshot;
    expect(sh.find((proc) => proc.command === sleep)?.explanation).toMatch(/^sleeping/);
    const shell = sh.find((proc) => proc.command.startsWith('sh -c'));
    if (shell) expect(shell.explanation).toMatch(/waiting for child \d+ `sleep 3073(\.\d+)?` to exit/);
  });
});

describe('limits that fire outside the stages', () => {
  it('times out while waiting for a writer on a --stdin FIFO, and exits', async () => {
    const dir = fs.mkdtempSync('/tmp/sr-fifo-');
    const fifo = path.join(dir, 'in');
    execFileSync('mkfifo', [fifo]);
    const { result, report } = await runJson(['--stdin', fifo, '--timeout', '1s', '--', 'cat'], {
      deadlineMs: 20_000,
    });
    expect(result.code).toBe(124);
    expect(report.stages[0]!.status).toBe('timeout');
    expect(report.stages[0]!.stop?.reason).toMatch(/still had no writer/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends at the timeout when a leftover holds the output and nobody reads safe-run, and lists it', async () => {
    const dir = fs.mkdtempSync('/tmp/sr-held-');
    const report = path.join(dir, 'report.json');
    const child = spawn(
      'bash',
      [
        '-c',
        `"$BIN" --no-facts --report "$REPORT" --timeout 2s --kill-after 1s -- sh -c '(yes 4711a &); exit 0' | sleep 60`,
      ],
      { env: { ...process.env, BIN, REPORT: report }, stdio: 'ignore', detached: true },
    );
    try {
      await waitFor('safe-run to end at its timeout', () => fs.existsSync(report), 30_000);
      const parsed = JSON.parse(fs.readFileSync(report, 'utf8'));
      expect(parsed.exitCode).toBe(124);
      expect(parsed.leftovers.map((item: { command: string }) => item.command)).toContain('yes 4711a');
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists a group member that had to be SIGKILLed', async () => {
    const sleep = unique(3074);
    const { report } = await runJson(
      ['--timeout', '1s', '--kill-after', '500ms', '--', 'sh', '-c', `sh -c "trap '' TERM; ${sleep}" & wait`],
      { deadlineMs: 20_000 },
    );
    const killed = report.leftovers.find((item) => item.command === sleep);
    expect(killed?.how).toMatch(/killed with SIGKILL/);
    await waitFor('the sleep to be gone', () => alive(sleep).length === 0);
  });
});
