import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// The text's own `exit N` ended it: no program failed, and `next` says what the text said before it,
// not that the exit builtin "failed and wrote nothing". A subshell's or a pipeline element's exit ends
// only itself: the advice is the usual one there.
const next = async (text: string) => {
  const result = await runCli(['--no-facts', '-c', text]);
  return result.stderr.split('\n').find((line) => line.startsWith('next: '));
};

describe('the next step after a text ended itself', () => {
  it.each([
    [
      'quotes the last stderr line a stage wrote before the exit',
      'echo first >&2; echo "error: config.yml is missing" >&2; exit 1',
      'next: the text ended itself with `exit 1` (stage 3 "exit"); the last stderr line before it: "error: config.yml is missing" (stage 2 "echo")',
    ],
    [
      'names the failure before it when nothing was said',
      'test -f /nonexistent/x || exit 3; echo never',
      'next: the text ended itself with `exit 3` (stage 2 "exit"), after stage 1 "test" failed with status 1',
    ],
    [
      'shows the exit as written, not its status',
      'exit 300',
      'next: the text ended itself with `exit 300` (stage 1 "exit")',
    ],
    [
      'an exit in a function ends the text too',
      'f() { exit 4; }; f',
      'next: the text ended itself with `exit 4` (stage 1 "exit")',
    ],
    [
      'a subshell’s exit is not the text’s',
      '(exit 3)',
      'next: stage 1 "exit" failed with exit 3; it wrote nothing to stderr',
    ],
    [
      'a pipeline element’s exit is not the text’s',
      'exit 3 | cat',
      'next: stage 1 "exit" failed with exit 3; it wrote nothing to stderr',
    ],
  ])('%s', async (_what, text, expected) => {
    expect(await next(text)).toBe(expected);
  });
});
