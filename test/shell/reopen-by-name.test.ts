import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// A stage that opens /dev/stdin by name reopens the link from the stage before it. The links are
// FIFOs, whose reopen waits for a writer when the writer has gone, where a pipe's returns at once: the
// engine notices the wait and completes it (src/engine/reopen-watch.ts). Each text lets the writer
// finish first (the reader waits for the file it touches), so the reopen meets a link nobody writes.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reopen-by-name-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
const after = (reader: string) => `sh -c 'until [ -e w ]; do sleep 0.02; done; sleep 0.1; ${reader}'`;

const TEXTS = [
  `sh -c 'printf abc; : > w' | ${after('cat /dev/stdin')}; rm w`,
  `sh -c 'seq 3; : > w' | ${after('cat /dev/stdin; cat /dev/stdin')}; rm w`,
  `sh -c ': > w' | ${after('wc -c /dev/stdin')} | cat; rm w`,
  `sh -c 'printf abc; : > w' | ${after('exec cat /proc/self/fd/0')}; rm w`,
  // A writer whose redirection failed never started: nobody ever held the link's write end.
  `echo x > nodir/f | sh -c 'sleep 0.2; cat /dev/stdin'; echo $?`,
  // A writer still running whose stdout went elsewhere, waiting for the reader: nobody holds the link.
  `sh -c 'until [ -e w ]; do sleep 0.05; done' >/dev/null | sh -c 'cat /dev/stdin; : > w'; rm w`,
];

describe('a stage that reopens its stdin by name after the writer exited', () => {
  it.each(TEXTS)('reads what is left and the end, as from a pipe: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
  });
});

describe('a stage that reopens its stdout or stderr by name after the reader exited', () => {
  // Its open is completed by a reader that is there for a moment: the write that follows meets no
  // reader (SIGPIPE, as on a pipe) or, when it comes within that moment, succeeds and is lost. Either
  // way the run ends (under the default --sigpipe tolerate, with 0) instead of waiting for its limit.
  it.each([
    "sh -c 'sleep 0.3; echo x >/dev/stderr' 2>&1 >/dev/null | true",
    "sh -c 'sleep 0.3; echo x >/dev/stdout' | true",
  ])('ends: %j', async (text) => {
    const result = await runCli(['--no-facts', '-q', '-c', text], { cwd: dir, env });
    expect(result.code).toBe(0);
  });
});
