import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BraceTracker } from '../../src/inputs/inline/brace-expansion.js';
import { againstBash } from '../helpers/against-bash.js';
import { BIN } from '../helpers/cli.js';

// Brace checking costs O(n): a word of n nested braces without a separator (`x {a{a...}}}`) used to cost
// O(n^2), in safe-run's own check (every open brace looked at for every character) and in bash's brace
// expansion, which the -c expansion helper ran on it (120 KB: over 60 s). Costs are CPU seconds, best of
// a few runs, so a busy machine slows both sizes alike; the bound is loose (10x the input for at most
// 15x the CPU) because a quadratic cost gives 100x.

const nested = (n: number) => `${'{a'.repeat(n)}${'}'.repeat(n)}`;

// CPU seconds of this process's waited-for children (clock ticks of /proc/self/stat, fields 16 and 17):
// safe-run and the bash it ran for its expansions.
function childrenCpu(): number {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function bestOf<T>(runs: number, measure: () => T, cost: (value: T) => number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) best = Math.min(best, cost(measure() as T));
  return best;
}

function dryRunCpu(n: number): number {
  return bestOf(
    3,
    () => {
      const before = childrenCpu();
      const result = spawnSync(process.execPath, [BIN, '--dry-run', '--json', '-c', `x ${nested(n)}`], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      });
      const after = childrenCpu();
      expect(result.signal).toBeNull();
      expect(result.stdout).toContain(nested(n));
      return after - before;
    },
    (seconds) => seconds,
  );
}

// The inline grammar's check, character by character as its word reader feeds it.
function trackerCpu(text: string): number {
  const chars = [...text];
  return bestOf(
    5,
    () => {
      const before = process.cpuUsage();
      const tracker = new BraceTracker(chars, 0);
      for (let i = 0; i < chars.length; i++) tracker.see(chars[i]!, i, chars[i - 1]);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1e6;
    },
    (seconds) => seconds,
  );
}

describe('brace checking is linear', () => {
  it('a -c dry run of 10x the nested braces costs at most 15x the CPU', () => {
    const small = dryRunCpu(4_000);
    const large = dryRunCpu(40_000);
    expect(large).toBeLessThanOrEqual(15 * Math.max(small, 0.05));
  }, 600_000);

  it("the inline grammar's check of 10x the nested braces costs at most 15x the CPU", () => {
    trackerCpu(nested(1_000));
    const small = trackerCpu(nested(20_000));
    const large = trackerCpu(nested(200_000));
    // A floor of 10 ms: at 2 ms a scheduler hiccup alone broke the ratio; a quadratic check takes seconds here.
    expect(large).toBeLessThanOrEqual(15 * Math.max(small, 0.01));
  }, 600_000);

  // Words without a separator between braces are given to bash with brace expansion off; every form
  // bash expands or keeps must come out as bash has it.
  it.each([
    'echo {a,b} x{a{a}} {a}b,c} "{"a,b} {a,b"}" {a..c} {a.."c"} a\\,{b} {a\\}b,c}',
    'echo x{a{a}}, {a{b}},c} {{a,b}} {a}{b,c} {}a,b} {1..3}{x,y}',
    'X={a,b} printenv X; cat <<< {a,b}; echo {a,b}',
  ])('expands braces as bash does: %s', async (text) => {
    const { bash, ours } = await againstBash(text, { env: { PATH: process.env.PATH!, HOME: '/h' } });
    expect(ours).toEqual({ code: bash.code, stdout: bash.stdout });
  });
});
