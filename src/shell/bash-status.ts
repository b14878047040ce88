import { shellStatus } from '../policy/signals.js';
import type { Policy, Report, StageResult } from '../types.js';

// The code a stage gives its shell: its exit code, 128 + the signal that killed it, or bash's code
// for a stage that never ran its program (127 not found, 126 not executable, 1 failed redirection).
export function stageShellCode(stage: StageResult): number {
  if (stage.signal !== null) return shellStatus(null, stage.signal);
  if (stage.exitCode !== null) return stage.exitCode;
  return stage.error?.exitCode ?? 1;
}

// The `$?` bash would have after a step, which decides `&&`, `||` and what later steps see as `$?`:
// under pipefail the rightmost non-zero stage code (141 for a writer killed by SIGPIPE included),
// under --policy last the last stage's. It ignores --sigpipe and --ok-codes on purpose: those change
// safe-run's verdict and exit code, never which later steps run (docs/inline-grammar.md).
export function bashStepStatus(report: Report, policy: Policy): number {
  const codes = report.stages.map(stageShellCode);
  if (codes.length === 0) return report.exitCode;
  if (policy === 'last') return codes.at(-1)!;
  return codes.reduce((status, code) => (code !== 0 ? code : status), 0);
}
