import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderNotices, renderTable } from '../../src/reporters/table.js';
import { reportOf, stageResult, streamReport } from '../helpers/index.js';

const plain = new Chalk({ level: 0 });

describe('renderTable (colour off)', () => {
  it('lines up one row per stage, then the verdict and the next step', () => {
    const report = reportOf(
      [
        stageResult(1, 'sigpipe', { name: 'yes', succeeded: true, stdout: streamReport({ bytes: null }) }),
        stageResult(2, 'failed', {
          name: 'grep-errors',
          exitCode: 2,
          durationMs: 1500,
          stdout: streamReport({ bytes: 2048 }),
          stderr: streamReport({ bytes: 70_000, truncated: true }),
        }),
      ],
      {
        verdict: { ok: false, exitCode: 2, blamedStage: 2, reason: 'policy pipefail: stage 2 failed' },
        next: 'read its stderr',
      },
    );
    expect(renderTable(report, plain)).toBe(
      [
        'command: yes | grep-errors',
        '#  STAGE        STATUS               EXIT     TIME   STDOUT   STDERR',
        '1  yes          sigpipe (tolerated)  SIGPIPE  12ms   piped    0 B',
        '2  grep-errors  failed               2        1.50s  2.0 KiB  68.4 KiB*',
        '* more than the cap was written: head and tail kept in the report',
        'safe-run: not ok, exit 2 (policy pipefail: stage 2 failed)',
        'next: read its stderr',
        '',
      ].join('\n'),
    );
  });

  it.each([
    {
      what: 'a stage that never started',
      stage: stageResult(1, 'not-started'),
      row: '1  stage1  not-started  -     -     -       -',
    },
    {
      what: 'a skipped stage',
      stage: stageResult(1, 'skipped'),
      row: '1  stage1  skipped  -     -     -       -',
    },
    {
      what: 'an optional stage that failed',
      stage: stageResult(1, 'failed', { optional: true }),
      row: '1  stage1  failed (optional)  1     12ms  0 B     0 B',
    },
    {
      what: 'binary output',
      stage: stageResult(1, 'ok', { stdout: streamReport({ bytes: 5, binary: true, text: null }) }),
      row: '1  stage1  ok      0     12ms  5 B binary  0 B',
    },
  ])('shows $what', ({ stage, row }) => {
    const lines = renderTable(reportOf([stage]), plain).split('\n');
    expect(lines[0]).toBe('command: stage1');
    expect(lines[2]).toBe(row);
  });

  it('explains a stage below its row: error, hint, fact, stop with its snapshot, logs', () => {
    const stage = stageResult(1, 'timeout', {
      name: 'job',
      error: null,
      hint: 'try less',
      stop: {
        reason: 'the pipeline timeout (1.00s)',
        cause: { kind: 'pipeline-timeout', limitMs: 1000 },
        afterMs: 1000,
        signals: ['SIGTERM', 'SIGKILL'],
        snapshot: [
          {
            pid: 42,
            ppid: 41,
            stage: 1,
            command: 'sleep 9',
            role: null,
            state: 'S',
            wchan: 'hrtimer_nanosleep',
            blocked: { op: 'sleep', fd: null, target: null, unread: null },
            peers: null,
            wait: 'sleep',
            threads: null,
            explanation: 'sleeping',
          },
        ],
        deadlock: null,
        waitingForStage: null,
      },
      stdout: streamReport({ logFile: '/tmp/logs/1-job.stdout' }),
    });
    const report = reportOf([stage], {
      facts: [
        {
          stage: 1,
          summary: 'job was missing here before',
          program: 'job',
          // biome-ignore lint/suspicious/noExplicitAny: the fact's other fields do not reach the table.
        } as any,
      ],
    });
    const lines = renderTable(report, plain).split('\n');
    expect(lines.slice(3, 8)).toEqual([
      '   hint: try less',
      '   fact: job was missing here before',
      '   stopped after 1.00s: the pipeline timeout (1.00s) (SIGTERM then SIGKILL)',
      '     pid 42 (sleep 9): sleeping',
      '   log: /tmp/logs/1-job.stdout',
    ]);
  });

  it('shows why a stage could not start', () => {
    const stage = stageResult(1, 'not-started', {
      error: { code: 'ENOENT', message: 'not found on PATH', exitCode: 127, during: 'preflight' },
    });
    expect(renderTable(reportOf([stage]), plain).split('\n')[3]).toBe('   ENOENT: not found on PATH');
  });
});

describe('renderNotices', () => {
  it('lists leftovers and warnings, one line each', () => {
    const report = reportOf([stageResult(1, 'ok')], {
      leftovers: [
        { pid: 7, command: 'sleep 60', stage: 'job', how: 'outlived its stage', action: 'killed' },
        { pid: 8, command: 'daemon', stage: null, how: 'escaped with setsid', action: 'kept' },
      ],
      warnings: ['log incomplete: disk full'],
    });
    expect(renderNotices(report, plain)).toBe(
      [
        'leftover: pid 7 (sleep 60) from stage "job": outlived its stage; killed',
        'leftover: pid 8 (daemon): escaped with setsid; kept',
        'warning: log incomplete: disk full',
        '',
      ].join('\n'),
    );
  });

  it('says nothing when there is nothing to say', () => {
    expect(renderNotices(reportOf([stageResult(1, 'ok')]), plain)).toBe('');
  });
});
