import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';

// A background job's own traps, each row against bash (which must print `expected`). bash without job
// control sends `kill %N` to the job's subshell alone: a trap it set runs once its current command
// ends, or at once in `wait` (which returns 128+n); its EXIT trap runs when it ends, also after a
// fatal signal. safe-run cancelled the job on any kill and never ran a job's EXIT trap: `{ trap "echo
// bye" EXIT; echo hi; } & wait` printed only hi, and `(trap "echo got TERM; exit 3" TERM; sleep 1) &
// kill %1` ended 143 without the trap. Each job says it is ready (its traps set) by a file, so no row
// depends on how fast a busy machine starts it.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'job-traps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };
const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);
// Waits (in the text) for the job to have set its traps.
const ready = 'until [ -e ready ]; do sleep 0.02; done; ';

describe("a background job's EXIT trap", () => {
  it('runs when the job ends, by its end, by exit, in a function, in a subshell', async () => {
    await same('{ trap "echo bye" EXIT; echo hi; } & wait', 'hi\nbye\n');
    await same('f() { trap "echo bye \\$?" EXIT; echo hi; false; }; f & wait', 'hi\nbye 1\n');
    await same('{ trap "echo bye" EXIT; exit 4; } & wait $!; echo $?', 'bye\n4\n');
    await same('( trap "echo bye" EXIT; echo hi ) & wait', 'hi\nbye\n');
    await same('{ trap "echo bye; exit 6" EXIT; true; } & wait $!; echo $?', 'bye\n6\n');
    await same('trap "echo top" EXIT; { echo job; } & wait', 'job\ntop\n');
  });

  it('runs after the text kills the job', async () => {
    await same(
      `{ trap "echo bye" EXIT; : > ready; sleep 2; echo never; } & ${ready}kill %1; wait %1; echo st $?`,
      'bye\nst 143\n',
    );
    await same(
      `( trap "echo bye" EXIT; : > ready; sleep 2; echo never ) & ${ready}kill -HUP %1; wait %1; echo st $?`,
      'bye\nst 129\n',
    );
  });
});

describe("the text's kill of a job waiting in a FIFO's open in the shell (a builtin's redirection)", () => {
  it('ends the wait at once, the job dying of the signal (it waited until the time limit)', async () => {
    await same('mkfifo f; read x < f & sleep 0.2; kill %1; wait %1; echo done $?', 'done 143\n');
    await same(
      `mkfifo f; { trap "echo bye" EXIT; : > ready; read x < f; } & ${ready}kill %1; wait %1; echo done $?`,
      'bye\ndone 143\n',
    );
  });
});

describe("a signal the job's shell traps", () => {
  it('runs the trap once the command it waits for has ended (not killing it), before the next', async () => {
    await same(
      `(trap "echo got TERM; exit 3" TERM; : > ready; sleep 0.5; echo slept) & ${ready}kill %1; wait %1; echo st $?`,
      'got TERM\nst 3\n',
    );
    await same(
      `{ trap "echo usr1" USR1; : > ready; sleep 0.5; echo slept; } & ${ready}kill -USR1 %1; wait %1; echo st $?`,
      'usr1\nslept\nst 0\n',
    );
  });

  it('ends a wait at once with 128+n, then runs the trap', async () => {
    await same(
      // ready once the job's shell waits: made by its own job, 0.2 s after it started.
      `(trap "echo bye" TERM; { sleep 0.2; : > ready; sleep 1; } & wait; echo "after $?") & ${ready}kill %1; wait; echo end`,
      'bye\nafter 143\nend\n',
    );
  });

  it('is the trap of the job’s own process: a nested subshell’s trap is not run, a lone one’s is', async () => {
    await same(
      `{ trap "echo outer" TERM; (trap "echo inner" TERM; : > ready; sleep 0.5); echo out; } & ${ready}kill %1; wait; echo end`,
      'outer\nout\nend\n',
    );
    await same(
      `( (trap "echo inner" USR1; : > ready; sleep 0.5; echo done) ) & ${ready}kill -USR1 %1; wait %1; echo st $?`,
      'inner\ndone\nst 0\n',
    );
  });

  it('does nothing for a signal the job ignores, nor for SIGINT and SIGQUIT untrapped (bash -c gives its jobs those ignored)', async () => {
    await same(
      `{ : > ready; sleep 0.3; echo slept; } & ${ready}kill -INT %1; wait %1; echo st $?`,
      'slept\nst 0\n',
    );
    await same(`sleep 0.3 & : > ready; ${ready}kill -QUIT %1; wait %1; echo st $?`, 'st 0\n');
    await same(
      `{ trap "echo int" INT; : > ready; sleep 0.3; } & ${ready}kill -INT %1; wait %1; echo st $?`,
      'int\nst 0\n',
    );
    await same(
      `trap "" TERM; { : > ready; sleep 0.3; echo slept; } & ${ready}kill %1; wait %1; echo st $?`,
      'slept\nst 0\n',
    );
    await same(
      `{ trap "" TERM; : > ready; sleep 0.3; echo slept; } & ${ready}kill %1; wait %1; echo st $?`,
      'slept\nst 0\n',
    );
  });
});

// Found by a hostile review of the first version of this change, each row failed on it.
describe('what the review found', () => {
  it('a second stop ends an EXIT trap that runs after a kill; SIGKILL runs no trap', async () => {
    await same(
      `{ trap 'while :; do sleep 0.2; done' EXIT; : > ready; sleep 2; } & ${ready}kill %1; sleep 0.5; kill -9 %1; wait %1; echo st $?`,
      'st 137\n',
    );
    await same(
      `{ trap "echo bye; : > r2; sleep 0.5; echo bye2" EXIT; : > ready; sleep 1; } & ${ready}kill %1; until [ -e r2 ]; do sleep 0.02; done; kill %1; wait %1; echo st $?`,
      'bye\nst 143\n',
    );
    await same(
      `{ trap "echo bye" EXIT; : > ready; sleep 1; } & ${ready}kill -9 %1; wait %1; echo st $?`,
      'st 137\n',
    );
  });

  it('the same signal sent twice runs its trap once', async () => {
    await same(
      `{ trap "echo T" TERM; : > ready; sleep 1; echo after; } & ${ready}kill %1; kill %1; wait %1; echo st $?`,
      'T\nafter\nst 0\n',
    );
  });

  it('exec ends the traps with the shell (a program not found keeps them)', async () => {
    await same(
      `{ trap "echo T" TERM; : > ready; exec sleep 1; } & ${ready}kill %1; wait %1; echo st $?`,
      'st 143\n',
    );
    await same('{ trap "echo bye" EXIT; exec true; } & wait %1; echo st $?', 'st 0\n');
    await same('trap "echo bye" EXIT; exec true', '');
    await same('( trap "echo bye" EXIT; exec sh -c "exit 3" ); echo $?', '3\n');
    await same('trap "echo bye" EXIT; exec nosuchcmd', 'bye\n');
  });

  it("the job's own trap or reset wins over the parent's ''", async () => {
    await same(
      `trap "" TERM; { trap "echo T" TERM; : > ready; sleep 1; echo after; } & ${ready}kill %1; wait %1; echo st $?`,
      'T\nafter\nst 0\n',
    );
    await same(
      `trap "" TERM; { trap - TERM; : > ready; sleep 1; echo after; } & ${ready}kill %1; wait %1; echo st $?`,
      'st 143\n',
    );
  });

  it('a signal whose default does nothing, SIGINT to a process substitution, ! and -PID', async () => {
    await same(
      `{ : > ready; sleep 0.3; echo after; } & ${ready}kill -WINCH %1; echo k $?; wait %1; echo st $?`,
      'k 0\nafter\nst 0\n',
    );
    await same(
      `exec 3< <(: > ready; sleep 0.5; echo ps); ${ready}kill -INT $!; cat <&3; wait $!; echo st $?`,
      'ps\nst 0\n',
    );
    await same(
      `! ( trap "echo T" TERM; : > ready; sleep 0.5; echo a ) & ${ready}kill %1; wait %1; echo st $?`,
      'T\na\nst 0\n',
    );
    await same('! true & wait $!; echo $?; ! false && echo x & wait $!; echo $?', '0\nx\n0\n');
    await same('sleep 0.3 & kill -TERM -$!; echo k $?; wait', 'k 1\n');
  });
});
