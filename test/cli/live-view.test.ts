// The live view under a real pty (util-linux `script`): per-stage status lines appear while the
// stages run, stage stderr scrolls above them, and at the end the table takes their place.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, waitFor } from '../helpers/index.js';
import { finalScreen } from '../helpers/screen.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-live-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const hasScript = fs.existsSync('/usr/bin/script');

// Runs `command` (a shell line) in a pty; collects everything the pty showed.
function inPty(command: string, env: Record<string, string> = {}) {
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, SAFE_RUN_FACTS: undefined, NO_COLOR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let shown = '';
  child.stdout.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exited.then(() => clearTimeout(timer));
  return { shown: () => shown, exited };
}

// Two stages: the first says it is working and waits for a file the test creates once it has seen
// the live view; nothing depends on how fast the machine is.
function pipeline(go: string): string {
  return `sh -c "echo working on it >&2; while [ ! -e ${go} ]; do sleep 0.05; done; echo finished >&2; echo result" | cat`;
}

describe.skipIf(!hasScript)('live view on a terminal', () => {
  it('shows one line per stage while they run, then the table replaces them', async () => {
    const go = path.join(scratch, 'go-1');
    const out = path.join(scratch, 'out-1');
    const run = inPty(`'${BIN}' --no-facts -c '${pipeline(go)}' > '${out}'`);
    await waitFor(
      'the live lines',
      () =>
        /1 sh {2}running .* {2}\| working on it/.test(run.shown()) && /2 cat {2}running/.test(run.shown()),
      30_000,
    );
    fs.writeFileSync(go, '');
    expect(await run.exited).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe('result\n');
    const screen = finalScreen(run.shown()).filter((line) => line.length > 0);
    // The stage's stderr stayed, in order; no live line is left; the table is there instead.
    expect(screen[0]).toBe('[sh] working on it');
    expect(screen[1]).toBe('[sh] finished');
    expect(screen[2]).toMatch(/^command: sh -c /);
    expect(screen[3]).toMatch(/^# {2}STAGE {2}STATUS/);
    expect(screen.some((line) => / running | done /.test(line))).toBe(false);
    expect(screen.at(-1)).toMatch(/^safe-run: ok, exit 0/);
  });

  it('is off with --no-live, with NO_COLOR, and when stdout is the terminal too', async () => {
    for (const [flags, env, redirect] of [
      ['--no-live', {}, true],
      ['', { NO_COLOR: '1' }, true],
      ['', {}, false],
    ] as const) {
      const go = path.join(scratch, `go-off-${flags}-${redirect}-${Object.keys(env).join()}`);
      fs.writeFileSync(go, '');
      const target = redirect ? ` > '${path.join(scratch, 'out-off')}'` : '';
      const run = inPty(`'${BIN}' --no-facts ${flags} -c '${pipeline(go)}'${target}`, env);
      expect(await run.exited).toBe(0);
      expect(run.shown()).not.toContain('\x1b[J');
      expect(finalScreen(run.shown()).some((line) => line.startsWith('safe-run: ok, exit 0'))).toBe(true);
    }
  });
});
