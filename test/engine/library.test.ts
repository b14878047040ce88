import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromArgv, planFromInline, run } from '../../src/index.js';
import { waitFor } from '../helpers/index.js';

function openFds(): string[] {
  return fs.readdirSync('/proc/self/fd').sort();
}

async function settledFds(): Promise<string[]> {
  let last = openFds();
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = openFds();
    if (now.join() === last.join()) return now;
    last = now;
  }
  return last;
}

function ourTempDirs(): string[] {
  return fs.readdirSync(os.tmpdir());
}

describe('the library', () => {
  it('returns the typed report without printing anything', async () => {
    const report = await run(planFromInline("printf 'x\\ny\\n' | wc -l", { facts: null }));
    expect(report.schemaVersion).toBe(1);
    expect(report.ok).toBe(true);
    expect(report.stages.map((stage) => stage.name)).toEqual(['printf', 'wc']);
    expect(report.stages[1]!.stdout.text?.trim()).toBe('2');
    expect(report.stages[0]!.stdout.bytes).toBeNull();
  });

  it('leaves no temporary file and no file descriptor behind, whatever the outcome', async () => {
    // A private temporary directory, so runs of other test files cannot show up in it.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-library-'));
    // Warm up once so lazily opened descriptors of the runtime itself do not count.
    await run(planFromArgv(['true'], { facts: null }));
    // Its watchdog's control socket closes a moment after the run resolves: the count starts once the
    // descriptors stay the same for 100 ms.
    const fdsBefore = await settledFds();
    const tempBefore = ourTempDirs();
    const plans = [
      planFromInline('yes | head -n1', { facts: null }),
      planFromInline("sh -c 'exit 3' | cat | wc -c", { facts: null }),
      planFromInline('no-such-program-xyz | cat', { facts: null }),
      planFromArgv(['sh', '-c', 'echo out; echo err >&2'], { facts: null }),
    ];
    for (const plan of plans) await run(plan);
    expect(ourTempDirs()).toEqual(tempBefore);
    // The watchdog's control socket is closed asynchronously right after the run; allow it a moment.
    await waitFor('descriptors to close', () => openFds().join() === fdsBefore.join(), 5000).catch(() => {});
    expect(openFds()).toEqual(fdsBefore);
    expect(tempBefore).toEqual([]);
    fs.rmSync(process.env.TMPDIR, { recursive: true, force: true });
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('gives the same stage a unique default name', async () => {
    const report = await run(planFromInline('cat /dev/null | cat | cat', { facts: null }));
    expect(report.stages.map((stage) => stage.name)).toEqual(['cat', 'cat-2', 'cat-3']);
  });
});
