import type { LineStyle } from './live-stream.js';

// Where a run's live output goes while it runs.
export interface RunIO {
  // Where the last stage's stdout streams live; null or absent: nothing streams (the library default).
  stdout?: NodeJS.WritableStream | null;
  // Where every stage's stderr streams live, whole lines, prefixed by stage name when there are several.
  stderr?: NodeJS.WritableStream | null;
  // Text put before each live stderr line (a timestamp); when set, stderr streams as whole lines.
  linePrefix?: (() => string) | null;
  // How live stderr lines are labelled, and whether a held line is shown before its newline.
  lines?: LineStyle | null;
  // When set, a stage's ::add-mask:: line (GitHub's workflow command) registers its value here, and
  // the run masks it from then on; values already here are masked from the start (earlier steps).
  masks?: string[] | null;
  // Show every stderr byte live instead of stopping the live view at --max-stderr (the MCP server's
  // transcript keeps the whole output itself; the report still keeps head and tail).
  wholeStderr?: boolean;
  // The moment (monotonicMs) the pipeline's time limit counts from; absent: the run's own start. Every
  // step of a -c text counts from the text's start.
  limitSince?: number;
}
