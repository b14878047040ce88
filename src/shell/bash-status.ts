import { shellStatus } from '../policy/signals.js';
import type { StageResult } from '../types.js';

// The code a stage gives its shell: its exit code, 128 + the signal that killed it, or bash's code
// for a stage that never ran its program (127 not found, 126 not executable, 1 failed redirection).
export function stageShellCode(stage: StageResult): number {
  if (stage.signal !== null) return shellStatus(null, stage.signal);
  if (stage.exitCode !== null) return stage.exitCode;
  return stage.error?.exitCode ?? 1;
}
