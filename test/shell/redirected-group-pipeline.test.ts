import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stdoutBothWays } from '../helpers/against-bash.js';

// A pipeline of programs inside a redirected group, function or process substitution: only its
// first program reads the group's stdin and only its last writes the group's stdout. Every member
// once got the group's held descriptor as its stdout (and stdin), which replaced the pipes between
// them: `f() { seq 3 | sed s/1/X/; }; f > out` wrote seq's 1 2 3, and `cat <(a | b)` printed a's.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'group-pipeline-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

describe('a pipeline in a redirected group keeps its pipes', () => {
  it.each([
    ['a function into a file', 'f() { seq 3 | sed s/1/X/; }; f > out; cat out', 'X\n2\n3\n'],
    ['a group into a pipe', '{ seq 3 | grep -v 2 | sed s/^/n/; } | cat', 'n1\nn3\n'],
    ['a process substitution', 'cat <(printf "a\\n" | tr a b | tr b c)', 'c\n'],
    ['a group from a file', 'printf "a\\nb\\n" >in; { cat | tr a X | sort -r; } <in', 'b\nX\n'],
    ['a loop read from a substitution', 'while read l; do echo $l; done < <(seq 3 | grep -v 2)', '1\n3\n'],
  ])('%s', async (_what, text, expected) => {
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(bash.stdout).toBe(expected);
    expect(ours).toEqual(bash);
  });
});
