import type { Discard } from '../expand/env.js';

// How control leaves a command other than by finishing: thrown through the runner and caught where
// bash would resume.

export class BreakSignal {
  constructor(public levels: number) {}
}

export class ContinueSignal {
  constructor(public levels: number) {}
}

// `return` from a function or a sourced file.
export class ReturnSignal {
  constructor(readonly status: number) {}
}

// The shell (or the subshell it was raised in) ends: `exit`, errexit, a fatal expansion error, or a
// stop by one of safe-run's limits (`stopped`: later commands must not run, and the verdict says so).
// `discard` (bash's DISCARD: failglob's no match): an eval, a sourced file or a trap action stops
// there instead, with its status.
export class ExitSignal {
  constructor(
    readonly status: number,
    readonly why: 'exit' | 'errexit' | 'error' | 'stopped' | 'signal' = 'exit',
    // errexit and an error: the line of the command, and bash's message about the error.
    readonly at: ShellEnd | null = null,
    readonly discard: Discard = false,
  ) {}
}

interface ShellEnd {
  line: number;
  message: string | null;
}

// How the text ended: its status, and why (it ran to its end, exit, errexit, a stop).
export interface Ending {
  status: number;
  why: ExitSignal['why'] | 'end';
  at?: ShellEnd | null;
}
