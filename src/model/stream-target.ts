// Where a redirection sent a stream instead of safe-run: a file (as the redirection named it),
// another of the stage's streams (`2>&1` is stdout), a here-document, the pipe into the next
// command, a command substitution, a closed descriptor. The report's `to` is its words.
export const STREAM_TARGET_KINDS = [
  'file',
  'stdout',
  'stderr',
  'stdin',
  'here-document',
  'pipe',
  'substitution',
  'closed',
] as const;

export type StreamTarget =
  | { kind: 'file'; path: string }
  | { kind: Exclude<(typeof STREAM_TARGET_KINDS)[number], 'file'> };
