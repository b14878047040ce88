// Variables bash sets for itself, written once: the interpreter of -c text and the single-pipeline
// grammar (a spec's run:, --expect-cmd) read these lists.

// Read-only in every bash (`readonly -p` of a fresh bash 5.2): assigning one is an error.
export const READ_ONLY_VARIABLES = ['BASHOPTS', 'BASH_VERSINFO', 'EUID', 'PPID', 'SHELLOPTS', 'UID'] as const;
export type ReadOnlyVariable = (typeof READ_ONLY_VARIABLES)[number];

// Arrays bash fills itself and lets no one else change: an assignment is dropped without a word
// (status 0), `unset` says "cannot unset" (status 1).
export const KEPT_ARRAYS: ReadonlySet<string> = new Set(['BASH_LINENO', 'BASH_SOURCE']);

// Arrays bash keeps for itself: a NAME=value before a command does not reach its environment.
export const SHELL_ARRAY_VARIABLES = [
  'BASH_ARGC',
  'BASH_ARGV',
  'BASH_LINENO',
  'BASH_SOURCE',
  'FUNCNAME',
  'GROUPS',
] as const;
