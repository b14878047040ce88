import os from 'node:os';

// Signal names and numbers as this platform defines them (SIGPIPE = 13 on Linux).
export function signalNumber(name: string): number {
  const table = os.constants.signals as Record<string, number>;
  return table[name] ?? 0;
}

// The number a shell reports for a process: its exit code, or 128 + the signal that killed it.
export function shellStatus(exitCode: number | null, signal: string | null): number {
  if (signal !== null) return 128 + signalNumber(signal);
  return exitCode ?? 0;
}
