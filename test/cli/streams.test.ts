// Issue 4 through the real CLI: every stream drained, head and tail kept, caps announced, logs
// saved, secrets masked. Real processes only; every run has a deadline, so a hang fails the test
// instead of blocking the suite, and nothing asserts on speed.
//
// The big-stream test sends SAFE_RUN_TEST_BIG_MIB MiB (default 1024, the 1 GiB) on stdout
// and as much on stderr: about 3 s on the 2-core development VM (6 s when it is busy). Set a smaller
// value where CI time is short: SAFE_RUN_TEST_BIG_MIB=64 takes a quarter of a second.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { omissionMarker } from '../../src/capture/head-tail.js';
import { NO_NEWLINE_MARK } from '../../src/capture/line-prefixer.js';
import { liveCapMarker } from '../../src/capture/live-cap.js';
import { logLimitMarker } from '../../src/capture/log-file.js';
import type { Report, StreamReport } from '../../src/types.js';
import { BIN, FIXTURES, ROOT, testSize } from '../helpers/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const PATH_WITH_FIXTURES = `${path.join(FIXTURES, 'bin')}:${process.env.PATH ?? ''}`;
const BIG_BYTES = testSize(256, 1024, 'SAFE_RUN_TEST_BIG_MIB') * MiB;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-streams-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

interface FileRun {
  result: { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
  report: Report;
}

// Runs the real CLI with its stdout and stderr going to files and --report FILE. Node writes to
// files synchronously, so everything safe-run printed is there when it exits; pipes are checked
// on their own below (the last describe blocks). Add --json to stream nothing.
async function runFiles(
  args: string[],
  options: { env?: Record<string, string>; deadlineMs?: number; onStart?: (pid: number) => void } = {},
): Promise<FileRun> {
  runs += 1;
  const dir = path.join(scratch, `run-${runs}`);
  fs.mkdirSync(dir);
  const [reportFile, outFile, errFile] = ['report.json', 'stdout', 'stderr'].map((name) =>
    path.join(dir, name),
  ) as [string, string, string];
  const out = fs.openSync(outFile, 'w');
  const err = fs.openSync(errFile, 'w');
  const child = spawn(process.execPath, [BIN, '--no-facts', '--report', reportFile, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NO_COLOR: '1',
      SAFE_RUN_FACTS: undefined,
      PATH: PATH_WITH_FIXTURES,
      ...options.env,
    },
    stdio: ['ignore', out, err],
  });
  fs.closeSync(out);
  fs.closeSync(err);
  options.onStart?.(child.pid ?? -1);
  // A hang fails the test instead of blocking the suite.
  const killer = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs ?? 30_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  clearTimeout(killer);
  const stdout = fs.readFileSync(outFile, 'utf8');
  const stderr = fs.readFileSync(errFile, 'utf8');
  if (!fs.existsSync(reportFile)) {
    throw new Error(`no report (exit ${code}, signal ${signal}); stderr: ${stderr.slice(-2000)}`);
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
  return { result: { code, signal, stdout, stderr }, report };
}

// Runs a shell command line (to put safe-run in a real pipe) with a deadline; stdout collected.
function shell(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', PATH: PATH_WITH_FIXTURES },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

// Exactly what `test/fixtures/bin/emit STREAM n` writes: 99-byte lines, restarted every 64 KiB.
function emitted(n: number): Buffer {
  const line = Buffer.from(
    '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz\n',
  );
  const chunk = Buffer.alloc(64 * KiB);
  for (let i = 0; i < chunk.length; i += 1) chunk[i] = line[i % line.length]!;
  const parts: Buffer[] = [];
  for (let left = n; left > 0; left -= chunk.length)
    parts.push(chunk.subarray(0, Math.min(left, chunk.length)));
  return Buffer.concat(parts);
}

// The kept text around its marker; head and tail together are the raw bytes the report shows.
function splitKept(stream: StreamReport): { head: string; tail: string } {
  const marker = omissionMarker(stream.omittedBytes);
  const text = stream.text ?? '';
  const at = text.indexOf(marker);
  expect(at, 'the omission marker is in the kept text').toBeGreaterThan(-1);
  return { head: text.slice(0, at), tail: text.slice(at + marker.length) };
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('seed 003: a stage that fills stderr before its result', () => {
  it('finishes, counts all 1,048,576 stderr bytes, keeps head and tail, and delivers the one-line result', async () => {
    const { result, report } = await runFiles(['--json', '--', 'sh', '-c', 'emit stderr 1048576; echo done']);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    const stage = report.stages[0]!;
    expect(stage.status).toBe('ok');
    expect(stage.stdout.text).toBe('done\n');
    expect(stage.stderr.bytes).toBe(1_048_576);
    expect(stage.stderr.truncated).toBe(true);
    const { head, tail } = splitKept(stage.stderr);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBe(1_048_576 - stage.stderr.omittedBytes);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(32 * KiB);
    const whole = emitted(1_048_576).toString();
    expect(whole.startsWith(head)).toBe(true);
    expect(whole.endsWith(tail)).toBe(true);
  });

  it('keeps both the first and the last line of a 200 KB stderr, cut at line boundaries', async () => {
    // 10,000 lines of 21 bytes: 210,000 bytes.
    const { report } = await runFiles(['--json', '--', 'sh', '-c', "seq -f 'stderr line %08g' 1 10000 >&2"]);
    const stderr = report.stages[0]!.stderr;
    expect(stderr.bytes).toBe(210_000);
    expect(stderr.truncated).toBe(true);
    const { head, tail } = splitKept(stderr);
    expect(head.startsWith('stderr line 00000001\n')).toBe(true);
    expect(tail.endsWith('stderr line 00010000\n')).toBe(true);
    expect(head.endsWith('\n')).toBe(true);
    expect(tail).toMatch(/^stderr line \d{8}\n/);
    const keptLines = (head + tail).split('\n').filter(Boolean);
    expect(keptLines.every((line) => /^stderr line \d{8}$/.test(line))).toBe(true);
    expect(keptLines.length * 21).toBe(210_000 - stderr.omittedBytes);
  });
});

describe('--on-limit', () => {
  it('kill: stops `yes` once its stdout crosses the cap, with status limit and exit 153', async () => {
    const { result, report } = await runFiles([
      '--json',
      '--on-limit',
      'kill',
      '--max-stdout',
      '64KiB',
      '--',
      'yes',
    ]);
    expect(result.code).toBe(153);
    const stage = report.stages[0]!;
    expect(stage.status).toBe('limit');
    expect(stage.stop?.reason).toMatch(/cap/);
    expect(stage.stdout.bytes).toBeGreaterThan(64 * KiB);
    expect(stage.stdout.truncated).toBe(true);
    expect(report.verdict.exitCode).toBe(153);
  });

  it('truncate (the default): a finite writer far past its caps finishes, and its byte counts are exact', async () => {
    const { result, report } = await runFiles(['--json', '--', 'emit', 'both', '5000000']);
    expect(result.code).toBe(0);
    const stage = report.stages[0]!;
    expect(stage.status).toBe('ok');
    expect(stage.stop).toBeNull();
    for (const stream of [stage.stdout, stage.stderr]) {
      expect(stream.bytes).toBe(5_000_000);
      expect(stream.truncated).toBe(true);
    }
  });
});

describe('big streams', () => {
  const mib = BIG_BYTES / MiB;
  it(
    `drains ${mib} MiB on stdout and ${mib} MiB on stderr from one stage, with exact counts, as binary, in bounded memory`,
    async () => {
      let peakKiB = 0;
      let pid = -1;
      const poll = setInterval(() => {
        try {
          const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
          const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
          if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
        } catch {
          // Not started yet, or gone.
        }
      }, 50);
      const deadlineMs = 60_000 + 120_000 * (BIG_BYTES / 1024 ** 3);
      const script = `head -c ${BIG_BYTES} /dev/zero; head -c ${BIG_BYTES} /dev/zero >&2`;
      try {
        const { result, report } = await runFiles(['--json', '--', 'sh', '-c', script], {
          deadlineMs,
          onStart: (started) => {
            pid = started;
          },
        });
        expect(result.code).toBe(0);
        for (const stream of [report.stages[0]!.stdout, report.stages[0]!.stderr]) {
          expect(stream).toMatchObject({ bytes: BIG_BYTES, truncated: true, binary: true, text: null });
          expect(stream.omittedBytes).toBe(BIG_BYTES - 32 * KiB);
        }
      } finally {
        clearInterval(poll);
      }
      // Memory does not follow the stream: the whole run stays far below what went through.
      if (fs.existsSync('/proc/self/status')) expect(peakKiB).toBeLessThan(512 * 1024);
    },
    60_000 + 150_000 * (BIG_BYTES / 1024 ** 3),
  );
});

describe('secret masking', () => {
  const token = 'sr-test-Zq8vT3kLm9Xw';
  // The first 16 characters, then after 200 ms the last 4: two writes, two reads.
  const inTwoParts =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
    'printf %s "${API_TOKEN%????}" >&2; sleep 0.2; printf "%s\\n" "${API_TOKEN#${API_TOKEN%????}}" >&2';

  it('masks a secret written in two parts 200 ms apart, on live stderr and in the report', async () => {
    const { result, report } = await runFiles(['--', 'sh', '-c', inTwoParts], {
      env: { API_TOKEN: token },
    });
    expect(result.code).toBe(0);
    expect(result.stderr.startsWith('***\n')).toBe(true);
    expect(result.stderr).not.toContain('Zq8vT3kL');
    expect(result.stderr).not.toContain('m9Xw');
    expect(report.stages[0]!.stderr.text).toBe('***\n');
    expect(report.stages[0]!.stderr.bytes).toBe(token.length + 1);
  });

  it('masks a variable named with --mask although its name does not look secret', async () => {
    const script = 'echo "deploying to $DEPLOY_HOST" >&2';
    const env = { DEPLOY_HOST: 'db7.internal.example' };
    const plain = await runFiles(['--json', '--', 'sh', '-c', script], { env });
    expect(plain.report.stages[0]!.stderr.text).toBe('deploying to db7.internal.example\n');
    const masked = await runFiles(['--mask', 'DEPLOY_HOST', '--', 'sh', '-c', script], {
      env,
    });
    expect(masked.result.stderr).toContain('deploying to ***\n');
    expect(masked.result.stderr).not.toContain('db7.internal');
    expect(masked.report.stages[0]!.stderr.text).toBe('deploying to ***\n');
  });

  it('warns when --mask names a variable that is not set', async () => {
    const { report } = await runFiles(['--json', '--mask', 'SR_TEST_NOT_SET', '--', 'true']);
    expect(report.warnings.join('\n')).toMatch(/mask SR_TEST_NOT_SET: the variable is not set/);
  });

  it('masks the saved logs too, including the secret written in two parts', async () => {
    const logDir = path.join(scratch, 'masked-logs');
    const script = `${inTwoParts}; echo "stdout has $API_TOKEN too"`;
    const { report } = await runFiles(['--json', '--log-dir', logDir, '--', 'sh', '-c', script], {
      env: { API_TOKEN: token },
    });
    const stage = report.stages[0]!;
    expect(fs.readFileSync(stage.stderr.logFile!, 'utf8')).toBe('***\n');
    expect(fs.readFileSync(stage.stdout.logFile!, 'utf8')).toBe('stdout has *** too\n');
    expect(stage.stdout.text).toBe('stdout has *** too\n');
  });

  it('leaves values shorter than 6 characters alone, as documented', async () => {
    const { report } = await runFiles(['--json', '--', 'sh', '-c', 'echo "$API_TOKEN"'], {
      env: { API_TOKEN: 'ab12x' },
    });
    expect(report.stages[0]!.stdout.text).toBe('ab12x\n');
  });

  // Needs an engine change (see the report of this work): the report's own fields are not masked.
  it('masks a secret that appears in the command line, in the JSON report and in the table', async () => {
    const { result, report } = await runFiles(['--', 'sh', '-c', `echo ${token} >/dev/null`], {
      env: { API_TOKEN: token },
    });
    expect(result.code).toBe(0);
    expect(JSON.stringify(report)).not.toContain(token);
    expect(result.stderr).not.toContain(token);
  });
});

describe('live streaming', () => {
  it('shows a long stderr live up to the cap, then one marker line, then its tail at the end', async () => {
    const { result, report } = await runFiles(['--', 'sh', '-c', "seq -f 'stderr line %08g' 1 10000 >&2"]);
    expect(result.code).toBe(0);
    const live = result.stderr;
    const marker = liveCapMarker('stage "sh" stderr', 32 * KiB);
    expect(count(live, marker)).toBe(1);
    const [shown, after] = live.split(marker) as [string, string];
    // At most the cap of the stage's bytes; a newline is added when the cut is not at a line end.
    expect(Buffer.byteLength(shown.slice(0, -1))).toBeLessThanOrEqual(32 * KiB);
    expect(shown.startsWith('stderr line 00000001\n')).toBe(true);
    expect(shown.endsWith('\n')).toBe(true);
    // After the marker: a note, then the end of the stream as whole lines, then the table.
    const note = /^\[safe-run: the last [\d.]+ KiB of stage "sh" stderr:\]\n/.exec(after);
    expect(note).not.toBeNull();
    const tailLines = after.slice(note![0].length).split('\n');
    const lastData = tailLines.indexOf('stderr line 00010000');
    expect(lastData).toBeGreaterThan(0);
    expect(tailLines.slice(0, lastData + 1).every((line) => /^stderr line \d{8}$/.test(line))).toBe(true);
    expect(live).not.toContain('stderr line 00005000');
    // The report keeps its own head and tail, unaffected by what was shown.
    expect(report.stages[0]!.stderr.bytes).toBe(210_000);
  });

  // A fast stage and a reader that starts late, as in `safe-run -- producer | consumer`: safe-run
  // must neither pile the stream up in memory nor drop what is still queued when it exits.
  it("streams the last stage's stdout whole by default, without a marker, also to a slow reader", async () => {
    // Numbered lines: a byte out of place (lost, repeated or overwritten) cannot go unnoticed.
    const lines = 600_000;
    const child = spawn(
      process.execPath,
      [BIN, '--no-facts', '--', 'sh', '-c', `seq 1 ${lines}; echo wrote-all >&2`],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', PATH: PATH_WITH_FIXTURES },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A listener, but paused: stdout is not read until safe-run has exited or a second has passed,
    // whichever comes first.
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stdout.pause();
    const until = Date.now() + 1000;
    while (!exited && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    child.stdout.resume();
    const code = await closed;
    clearTimeout(killer);
    expect(code, stderr).toBe(0);
    const received = Buffer.concat(out).toString();
    const expected = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('');
    expect(received.length).toBe(expected.length);
    expect(received === expected).toBe(true);
  });

  // Fails until the drain timeout stops counting while safe-run itself has paused reading for a slow
  // reader (see the report of this work): the stage has exited, its last bytes wait in the pipe, and
  // safe-run took the wait for a descendant holding the pipe, gave up, and dropped them.
  it('delivers all of stdout to a reader that starts only after the stage exited, past the drain timeout', async () => {
    // A real pipe into a consumer that starts reading a second late, as `safe-run ... | slow-tool`.
    const command = `"${process.execPath}" "${BIN}" --no-facts --drain-timeout 200ms -- seq 1 30000 | (sleep 1; cat)`;
    const result = await shell(command);
    expect(result.code).toBe(0);
    const expected = Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join('');
    expect(result.stdout.length).toBe(expected.length);
    expect(result.stdout === expected).toBe(true);
  });

  // Fails until safe-run handles errors on its own stderr as it does on stdout (see the report of
  // this work): live stderr then waits forever for a 'drain' that never comes, and so does the stage.
  it('goes on, and reports, when whoever reads its stderr goes away', async () => {
    const reportFile = path.join(scratch, 'stderr-gone.json');
    const child = spawn(
      process.execPath,
      [BIN, '--no-facts', '--report', reportFile, '--', 'sh', '-c', 'seq 1 200000 >&2; echo finished'],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stderr.destroy();
    // A hang fails here, well before the suite's own one-minute timeout.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(killer);
    expect(code).toBe(0);
    expect(stdout).toBe('finished\n');
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
    expect(report.stages[0]!.stderr.bytes).toBe(1_288_895);
  });

  it('caps live stdout too with --live-stdout capped: one marker line, then the tail', async () => {
    const { result, report } = await runFiles([
      '--live-stdout',
      'capped',
      '--max-stdout',
      '4KiB',
      '--',
      'sh',
      '-c',
      "seq -f 'stdout line %08g' 1 10000",
    ]);
    expect(result.code).toBe(0);
    const marker = liveCapMarker('stage "sh" stdout', 4 * KiB);
    expect(count(result.stdout, marker)).toBe(1);
    const [shown, after] = result.stdout.split(marker) as [string, string];
    expect(Buffer.byteLength(shown.slice(0, -1))).toBeLessThanOrEqual(4 * KiB);
    expect(shown.startsWith('stdout line 00000001\n')).toBe(true);
    expect(after).toMatch(/^\[safe-run: the last [\d.]+ (B|KiB) of stage "sh" stdout:\]\n/);
    expect(after.endsWith('stdout line 00010000\n')).toBe(true);
    expect(report.stages[0]!.stdout.bytes).toBe(210_000);
  });
});

describe('--log-dir', () => {
  it('saves every stream whole, one file per stage and stream, and names the files in the report', async () => {
    const logDir = path.join(scratch, 'logs-whole');
    const { result, report } = await runFiles(['--log-dir', logDir, '-c', 'emit both 300000 | cat']);
    expect(result.code).toBe(0);
    const [emit, cat] = report.stages as [Report['stages'][0], Report['stages'][0]];
    // The first stage's stdout goes into the pipe to `cat`: only cat's stdout is safe-run's to save.
    expect(emit.stdout.logFile).toBeNull();
    // Every name starts with the run's start time and safe-run's pid: runs sharing a directory never collide.
    const prefix = `${path.basename(emit.stderr.logFile ?? '').replace(/1-emit\.stderr$/, '')}`;
    expect(prefix).toMatch(/^\d{8}T\d{6}Z-\d+\.$/);
    expect(emit.stderr.logFile).toBe(path.join(logDir, `${prefix}1-emit.stderr`));
    expect(cat.stdout.logFile).toBe(path.join(logDir, `${prefix}2-cat.stdout`));
    expect(cat.stderr.logFile).toBe(path.join(logDir, `${prefix}2-cat.stderr`));
    expect(fs.readdirSync(logDir).sort()).toEqual(
      ['1-emit.stderr', '2-cat.stderr', '2-cat.stdout'].map((name) => prefix + name),
    );
    const expected = emitted(300_000);
    expect(fs.readFileSync(emit.stderr.logFile!).equals(expected)).toBe(true);
    expect(fs.readFileSync(cat.stdout.logFile!).equals(expected)).toBe(true);
    expect(fs.readFileSync(cat.stderr.logFile!).length).toBe(0);
    // Kept in the report: only head and tail.
    expect(emit.stderr.truncated).toBe(true);
    for (const file of [emit.stderr.logFile, cat.stdout.logFile, cat.stderr.logFile]) {
      expect(result.stderr).toContain(`   log: ${file}\n`);
    }
  });

  it('--max-log bounds each file, and the file says where and how much it stopped', async () => {
    const logDir = path.join(scratch, 'logs-bounded');
    const { report } = await runFiles([
      '--json',
      '--log-dir',
      logDir,
      '--max-log',
      '100KiB',
      '--',
      'emit',
      'stderr',
      '300000',
    ]);
    const saved = fs.readFileSync(report.stages[0]!.stderr.logFile!);
    const marker = logLimitMarker(100 * KiB, 300_000 - 100 * KiB);
    expect(saved.subarray(0, 100 * KiB).equals(emitted(100 * KiB))).toBe(true);
    expect(saved.subarray(100 * KiB).toString()).toBe(marker);
    expect(report.stages[0]!.stderr.bytes).toBe(300_000);
  });
});

describe('binary output', () => {
  const script = "head -c 3000 /dev/urandom >&2; printf 'PNG\\000\\001\\002\\377\\376'";

  it('is reported in JSON with its byte count and no text', async () => {
    const { report } = await runFiles(['--json', '--', 'sh', '-c', script]);
    const stage = report.stages[0]!;
    expect(stage.stdout).toMatchObject({ bytes: 8, binary: true, text: null, truncated: false });
    expect(stage.stderr).toMatchObject({ bytes: 3000, binary: true, text: null, truncated: false });
  });

  // Fails until the table says which streams are binary (see the report of this work).
  it('is marked as binary in the table, next to its byte count', async () => {
    const { result } = await runFiles(['--', 'sh', '-c', script]);
    const row = result.stderr.split('\n').find((line) => line.startsWith('1  sh '));
    expect(row).toBeDefined();
    expect(row).toMatch(/8 B\b.*binary/);
    expect(row).toMatch(/2\.9 KiB\b.*binary/);
  });
});

describe('several stages', () => {
  it('prefixes every live stderr line with its stage name and never mixes two stages within a line', async () => {
    const spec = path.join(scratch, 'two-writers.yaml');
    fs.writeFileSync(
      spec,
      [
        'version: 1',
        'max-stderr: 4MiB',
        'stages:',
        '  - name: alpha',
        `    run: [sh, -c, "seq -f 'alpha line %06g of a stage writing many lines' 1 20000 >&2"]`,
        '  - name: beta',
        `    run: [sh, -c, "seq -f 'beta line %06g of another stage writing at the same time' 1 20000 >&2"]`,
        '',
      ].join('\n'),
    );
    const { result, report } = await runFiles(['-f', spec], { deadlineMs: 60_000 });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    const alpha = lines.filter((line) => line.startsWith('[alpha] '));
    const beta = lines.filter((line) => line.startsWith('[beta] '));
    const expected = (name: string, what: string) =>
      Array.from(
        { length: 20000 },
        (_, i) => `[${name}] ${name} line ${String(i + 1).padStart(6, '0')} ${what}`,
      );
    expect(alpha).toEqual(expected('alpha', 'of a stage writing many lines'));
    expect(beta).toEqual(expected('beta', 'of another stage writing at the same time'));
    expect(result.stderr).not.toContain(NO_NEWLINE_MARK);
    expect(report.stages.map((stage) => stage.stderr.bytes)).toEqual([
      20000 * 'alpha line 000001 of a stage writing many lines\n'.length,
      20000 * 'beta line 000001 of another stage writing at the same time\n'.length,
    ]);
  });
});

describe('the JSON report on stdout', () => {
  // Fails until the CLI lets pending writes finish before it exits (see the report of this work).
  it('arrives whole through a pipe when it is larger than the pipe buffer', async () => {
    // About 2 MB of JSON; `| cat` is a real pipe (64 KiB on Linux), as in `safe-run --json ... | jq`.
    // (With the default caps, two full streams already make a 66 KB document.)
    const command = `"${process.execPath}" "${BIN}" --json --no-facts --max-stdout 1MiB --max-stderr 1MiB -- emit both 1000000 | cat`;
    const result = await shell(command);
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(64 * KiB);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.stages[0]!.stdout.bytes).toBe(1_000_000);
    expect(report.stages[0]!.stderr.bytes).toBe(1_000_000);
  });
});
