import type { Report } from '../types.js';

// Where a reporter's text goes: safe-run's stdout, its stderr, or a file (written whole or not at all).
export type Destination =
  | { kind: 'stdout' }
  | { kind: 'stderr' }
  | { kind: 'file'; path: string; flag: string }
  // A new file in `dir` (made if missing): `base` + `ext`, or base-2, base-3... when that is taken,
  // so that every run of a job that shares the flag (SAFE_RUN_OPTIONS) keeps its own file.
  | { kind: 'new-file'; dir: string; base: string; ext: string; flag: string }
  // The end of a file another program hands over and reads after the step (GitHub's step summary).
  | { kind: 'append'; path: string; flag: string };

// Every output format is one of these, as hyperfine's exporters: a finished run's report in, text for
// one destination out. The table, the JSON document and the --report file are reporters; a CI format
// (the table framed with GitHub or GitLab groups and annotations, JUnit XML, the step summary) is
// another one added to the list the CLI builds.
// A reporter only reads the report: it never reaches back into the engine.
export interface Reporter {
  readonly name: string;
  readonly destination: Destination;
  render(report: Report): string;
}
