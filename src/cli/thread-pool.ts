import fs from 'node:fs';

// libuv's pool of threads (4 by default) runs every file open, and an open of a FIFO holds its thread
// until the other end comes: a command with four `>(list)` (each list's job waits in such an open until
// the command opens its path) left none for the work that would end those waits. The pool is made when
// first used, sized by UV_THREADPOOL_SIZE as it is then: the variable is set for that moment only, so
// that no stage inherits it, and one the user set is left as it is. Called where a run or the MCP server
// is about to start, not at start-up: 32 threads cost ~3.6 ms, which --version and inspect need not pay.
const THREADS = '32';

export function widenThreadPool(): void {
  if (process.env.UV_THREADPOOL_SIZE !== undefined) return;
  process.env.UV_THREADPOOL_SIZE = THREADS;
  try {
    fs.access('/', () => {});
  } finally {
    delete process.env.UV_THREADPOOL_SIZE;
  }
}
