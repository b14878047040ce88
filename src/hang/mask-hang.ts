import { maskShortened } from '../capture/mask-cut.js';
import type { BlockedProcess, Deadlock } from '../types.js';

type Mask = (text: string) => string;

// One process of a hang snapshot: its command, what it is blocked on (a file's path), who holds the
// other end. Also used for the SIGUSR1 look and `safe-run inspect`.
export function maskProcess(proc: BlockedProcess, m: Mask): BlockedProcess {
  const target = proc.blocked?.target ?? null;
  return {
    ...proc,
    command: m(proc.command),
    blocked: proc.blocked ? { ...proc.blocked, target: target === null ? null : m(target) } : null,
    explanation: m(proc.explanation),
    peers: proc.peers?.map((peer) => ({ ...peer, command: m(peer.command) })) ?? null,
  };
}

// A look at a hang (SIGUSR1, `safe-run inspect`): commands, targets and sentences masked.
export function maskHangReport<T extends { processes: BlockedProcess[]; deadlock: Deadlock | null }>(
  report: T,
  secrets: readonly string[],
): T {
  if (!secrets.some((secret) => secret.length > 0)) return report;
  const m: Mask = (text) => maskShortened(text, secrets);
  return {
    ...report,
    processes: report.processes.map((proc) => maskProcess(proc, m)),
    deadlock: report.deadlock ? { ...report.deadlock, explanation: m(report.deadlock.explanation) } : null,
  };
}
