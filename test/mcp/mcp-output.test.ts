import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { type McpSession, scratchDir, startSession } from './mcp-client.js';

// What `run` shows: every step's output in the order printed, the whole call within one budget with a
// truthful cut marker, and a stop by one of safe-run's limits as the end of the call, not ok.

let session: McpSession;

beforeAll(async () => {
  session = await startSession(scratchDir('safe-run-mcp-output-'));
});

afterAll(async () => {
  await session?.close();
  fs.rmSync(session.dir, { recursive: true, force: true });
});

describe('the output of a run call', () => {
  it('shows every step of a list, stdout and stderr, in the order printed', async () => {
    const both = await session.call('run', { command: 'echo one; echo two' });
    expect(both.isError).toBe(false);
    expect(both.text).toMatch(/^--- output ---\none\ntwo\ncommand: /);
    const mixed = await session.call('run', { command: 'ls /no-such-dir; echo "exit=$?"; echo done >&2' });
    expect(mixed.text).toMatch(
      /^--- output ---\nls: cannot access '\/no-such-dir': No such file or directory\nexit=2\ndone\n/,
    );
  });

  it('cuts `seq 1 2000000` to the budget and says exactly how much was cut and where all of it is', async () => {
    const result = await session.call('run', { command: 'seq 1 2000000' });
    const marker =
      /\[\.\.\. ([\d,]+) bytes \(.*?, lines ([\d,]+)-([\d,]+)\) cut here; the whole output is in (\S+): /.exec(
        result.text,
      );
    expect(marker, result.text.slice(0, 400)).not.toBeNull();
    const cut = Number(marker![1]!.replace(/,/g, ''));
    const file = marker![4]!;
    const whole = fs.readFileSync(file, 'utf8');
    expect(whole.length).toBe(14_888_896);
    // The text shows head and tail; the marker says the rest, to within 10% (it is exact).
    const output = result.text.slice('--- output ---\n'.length, result.text.indexOf('command: seq'));
    const markerLine = output.split('\n').find((line) => line.startsWith('[... '))!;
    const shown = Buffer.byteLength(output) - Buffer.byteLength(`${markerLine}\n`);
    const reallyCut = whole.length - shown;
    expect(Math.abs(cut - reallyCut) / reallyCut).toBeLessThan(0.1);
    expect(shown).toBeLessThanOrEqual(30_000);
    // The lines it names are the ones missing: the head ends just before, the tail starts just after.
    const [from, to] = [Number(marker![2]!.replace(/,/g, '')), Number(marker![3]!.replace(/,/g, ''))];
    expect(output).toContain(`\n${from - 1}\n[... `);
    expect(output).toContain(`...]\n${to + 1}\n`);
    expect(result.structured.output).toEqual({ bytes: 14_888_896, cut, file });
  });

  it('shows data as one line that says where it is, and a stray byte that is not UTF-8 as \\xHH', async () => {
    const data = await session.call('run', { command: 'head -c 3000 /dev/urandom' });
    expect(data.isError).toBe(false);
    const marker =
      /^--- output ---\n\[binary output: 3,000 bytes \(2\.9 KiB\) of data \(a NUL byte, or mostly not UTF-8\), not shown; it is in (\S+): read a part with run, e\.g\. od -A d -c \S+ \| head -20, or xxd\]\ncommand: /.exec(
        data.text,
      );
    expect(marker, data.text.slice(0, 400)).not.toBeNull();
    // Nothing of it in the text (it was 3,000 bytes of U+FFFD and control characters), all of it in the file.
    expect(data.text).not.toContain('\uFFFD');
    expect(fs.statSync(marker![1]!).size).toBe(3000);
    expect(data.structured.output).toEqual({ bytes: 3000, cut: 3000, file: marker![1] });
    const stray = await session.call('run', { command: "printf 'caf\\xe9 ok \\xff\\n'" });
    expect(stray.text).toMatch(/^--- output ---\ncaf\\xE9 ok \\xFF\ncommand: /);
    expect(stray.structured.output).toEqual({ bytes: 10, cut: 0, file: null });
  });

  it('names a read by bytes when the cut lies inside one long line (sed would print it whole)', async () => {
    const result = await session.call('run', {
      command: 'head -c 100000 /dev/zero | tr "\\0" a; printf b; echo; echo end',
    });
    const read =
      /lines 1-1\) cut here; the whole output is in (\S+): read a part with run, e\.g\. (tail -c \+(\d+) \S+ \| head -c 4000), or grep it/.exec(
        result.text,
      );
    expect(read, result.text.slice(0, 300)).not.toBeNull();
    // It starts at the first byte the text left out: the head shows the bytes before it.
    const head = result.text.slice('--- output ---\n'.length, result.text.indexOf('\n[... '));
    expect(Number(read![3]) - 1).toBe(Buffer.byteLength(head));
    const part = await session.call('run', { command: read![2]! });
    expect(part.text).toMatch(/^--- output ---\na{4000}\n\[no newline at the end\]\n/);
  });

  it('takes a budget per call', async () => {
    const result = await session.call('run', { command: 'seq 1 1000', budget: 400 });
    const output = result.text.slice(0, result.text.indexOf('command: '));
    expect(Buffer.byteLength(output)).toBeLessThan(400 + 400);
    expect(output).toMatch(/^--- output ---\n1\n2\n/);
    expect(output).toMatch(/\n999\n1000\n$/);
  });

  it('ends the call not ok at an idle stop, the later steps skipped', async () => {
    const result = await session.call('run', {
      command: 'echo start; sleep 30; touch idle-after',
      idleTimeout: 0.5,
    });
    expect(result.isError).toBe(true);
    expect(result.structured.exitCode).toBe(124);
    expect(result.text).toContain('step 3: touch idle-after: skipped (a step before it was stopped)');
    expect(result.text).toMatch(
      /not ok, exit 124 \(step 2 \(the last that ran\): stage 2 "sleep" was stopped: the idle timeout/,
    );
    expect(fs.existsSync(path.join(session.dir, 'idle-after'))).toBe(false);
    // The advice names the call's field, not a CLI flag, and the job a quiet build can be.
    expect(result.structured.next).toMatch(
      /before raising the limit; for this call that is "idleTimeout": seconds \(0: no limit\), or run it as a job that nothing waits for \("background": true, or "yield": seconds\), read with job_output$/,
    );
    const timed = await session.call('run', { command: 'sleep 30', timeout: 0.5 });
    expect(timed.structured.exitCode).toBe(124);
    expect(timed.text).toContain(
      '; for this call that is "timeout": seconds (0: no limit), or run it as a job',
    );
  });

  it('ends the call not ok at a prompt stop, the later steps skipped', async () => {
    const ask = path.join(FIXTURES, 'agent', 'ask');
    const result = await session.call('run', {
      command: `${ask} && touch prompt-after; touch prompt-after-2`,
    });
    expect(result.isError).toBe(true);
    expect(result.structured.exitCode).toBe(124);
    expect(result.text).toContain('waiting for an answer: Overwrite config.json? [y/N]');
    expect(result.text).toContain('skipped (a step before it was stopped)');
    expect(fs.existsSync(path.join(session.dir, 'prompt-after-2'))).toBe(false);
  });
});
