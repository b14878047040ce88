// Runs a section's cases in rounds: each round runs every case once, in an order rotated by one each
// round, so that a change in the machine's load falls on all cases alike and no case always runs
// first. A run that fails its check is recorded as a failure (with how to reproduce it), not timed.
import { measureOnce } from './measure.mjs';

function commandOf(kase, context) {
  return {
    argv: kase.argv,
    env: { ...context.baseEnv, ...kase.env },
    cwd: context.cwd,
    stdout: kase.stdout,
    stderr: kase.stderr,
  };
}

function problemWith(kase, sample) {
  // `codes`: the exit codes that mean the case did what it measures (a time limit's 124).
  if (!(kase.codes ?? [0]).includes(sample.code) || sample.signal) {
    const how = sample.signal ? `signal ${sample.signal}` : `exit ${sample.code}`;
    return `${how}; stderr: ${sample.stderr.trim().slice(-300) || '(none captured)'}`;
  }
  return kase.check ? kase.check(sample) : null;
}

// Start-up is a few milliseconds, where GNU time's own exec would show: time it bare, and take CPU
// and RSS from a second run of the same round under GNU time.
// A case with `around` (start 2,000 idle processes, say) has each of its samples taken inside it;
// `around` may rewrite the command line for that sample (put in the pid of a tree it started).
function sampleCase(kase, context) {
  if (!kase.around) return sampleBare(kase, context);
  return kase.around((rewrite) =>
    sampleBare(rewrite ? { ...kase, argv: rewrite(kase.argv) } : kase, context),
  );
}

async function sampleBare(kase, context) {
  const command = commandOf(kase, context);
  const measured = await measureOnce(command, { useTime: context.useTime, tmpDir: context.tmpDir });
  if (!context.bareWall || !context.useTime) return measured;
  const bare = await measureOnce(command, { useTime: false, tmpDir: context.tmpDir });
  if (problemWith(kase, bare)) return bare;
  return { ...measured, wallMs: bare.wallMs };
}

function rotate(list, by) {
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

// context: { rounds, warmup, bareWall, useTime, tmpDir, baseEnv, cwd, log }
// Returns one result per case: { case, samples (per round, null where it failed), failures }.
export async function runSection(section, context) {
  const results = section.cases.map((kase) => ({ case: kase, samples: [], failures: [] }));
  if (context.warmup) {
    for (const result of results) await sampleCase(result.case, context);
  }
  for (let round = 0; round < context.rounds; round += 1) {
    const line = [];
    for (const result of rotate(results, round)) {
      const sample = await sampleCase(result.case, context);
      const problem = problemWith(result.case, sample);
      if (problem) {
        result.samples[round] = null;
        result.failures.push({ round: round + 1, problem });
        line.push(`${result.case.label} FAILED`);
      } else {
        result.samples[round] = sample;
        line.push(`${result.case.label} ${formatMs(sample.wallMs)}`);
      }
    }
    context.log(`[${section.id}] round ${round + 1}/${context.rounds}: ${line.join(', ')}`);
  }
  return results;
}

export function formatMs(ms) {
  if (ms === null || ms === undefined) return 'n/a';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(1)} ms`;
}
