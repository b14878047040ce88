import fs from 'node:fs';
import type { Plan } from '../types.js';

// libuv's pool of threads (4 by default) runs every file open, and an open of a FIFO holds its thread
// until the other end comes: a command with four `>(list)` (each list's job waits in such an open until
// the command opens its path) left none for the work that would end those waits. The pool is made when
// first used, sized by UV_THREADPOOL_SIZE as it is then: the variable is set for that moment only, so
// that no stage inherits it, and one the user set is left as it is. Called where a run or the MCP server
// is about to start, not at start-up: 32 threads cost ~3.6 ms, which --version and inspect need not pay.
//
// Nor does a run that cannot wait in several opens at once. Every thread is also moved with safe-run
// each time it steps into a run's cgroup to start a stage and back out (a cgroup holds whole
// processes): measured here, a move took 0.18 ms with 4 threads in the pool and 0.68 ms with 32, two
// moves a stage. So the pool is widened for a spec file (read before its plan exists) and for a text
// that can have opens waiting side by side: one with a process substitution, a background job, text
// it reads at run time (eval, source, `.`), or a pipeline and a redirection to a file anywhere in it
// (the elements of a pipeline run at once, and a builtin's or a group's redirection is opened on the
// pool). A text of commands one after the other, and a command after --, wait in one open at a time.
const THREADS = '32';

let widened = false;

export function widenThreadPool(): void {
  if (widened || process.env.UV_THREADPOOL_SIZE !== undefined) return;
  widened = true;
  process.env.UV_THREADPOOL_SIZE = THREADS;
  try {
    fs.access('/', () => {});
  } finally {
    delete process.env.UV_THREADPOOL_SIZE;
  }
}

// `<(` `>(`; an `&` that ends a command (not `&&`, `>&`, `&>`, `|&`); eval, source and `.` as words
// (`find . -name` too). Read on the text as written: a quoted one counts too, which only widens.
const SIDE_BY_SIDE = /[<>]\(|(?<![&<>|])&(?![&>])|(?:^|[\s;&|(){}`$])(?:eval|source|\.)(?=[\s;&|)]|$)/;
// A pipe (`|`, `|&`; not `||`), and a redirection to a file (not `2>&1`, a here-document or
// /dev/null).
const PIPE = /(?<!\|)\|(?!\|)/;
const FILE_REDIRECT =
  /(?:^|[^<>&])(?:&>>?|>>|>\||<>|>|<)(?![<>&(])\s*(?!\/dev\/null(?:[\s;&|)]|$))[^\s;&|<>()]/;

// Whether a run of this plan can wait in several FIFO opens at once (above).
export function needsWidePool(plan: Plan): boolean {
  if (plan.shell === undefined) return false;
  const text = plan.shell.source;
  return SIDE_BY_SIDE.test(text) || (PIPE.test(text) && FILE_REDIRECT.test(text));
}
