import { describe, expect, it } from 'vitest';
import { needsWidePool } from '../../src/cli/thread-pool.js';
import { planFromArgv, planFromInline } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// libuv's pool is widened only for a run that can wait in several FIFO opens at once
// (src/cli/thread-pool.ts): every thread in it is moved with safe-run into and out of a run's cgroup.
describe('the size of libuv pool', () => {
  const wide = (text: string) => needsWidePool(planFromInline(text, { facts: null }));

  it('is widened for process substitutions, background jobs and text read at run time', () => {
    const widened = [
      'tee >(wc -c) >/dev/null',
      'diff <(ls a) <(ls b)',
      'sleep 1 & wait',
      'a&',
      'read x < fifo & echo hi > fifo',
      'eval "$cmd"',
      'source ./env.sh; run',
      '. ./env.sh',
      'if true; then . x; fi',
    ];
    expect(widened.filter((text) => !wide(text))).toEqual([]);
  });

  it('is not for commands one after the other, whatever their redirections', () => {
    const narrow = [
      'cd x && npm test 2>&1 | tail -n 40',
      'make |& tee log',
      'cmd &> out.log; cmd2 &>> out.log',
      'a >&2 || b <&0',
      './configure && make -j2',
      'printf "%s\\n" a.b ./c',
      'x=1; echo "$x" > file',
      'source_dir=1; evaluate',
    ];
    expect(narrow.filter(wide)).toEqual([]);
    expect(needsWidePool(planFromArgv(['sleep', '1'], { facts: null }))).toBe(false);
  });

  it('lets five background jobs wait in FIFO opens while the text opens their other ends', async () => {
    // Each `cat < fN &` holds a thread of the pool in its open until the loop's `echo > fN` comes,
    // whose open needs a thread too: with libuv's default 4 the text waited until its time limit.
    const scratch = scratchDir('safe-run-pool-');
    try {
      const text = [
        'mkfifo f1 f2 f3 f4 f5',
        'for f in f1 f2 f3 f4 f5; do cat < $f & done',
        'for f in f1 f2 f3 f4 f5; do echo $f > $f; done',
        'wait',
      ].join('\n');
      const result = await runCli(['--no-facts', '-q', '--timeout', '60s', '-c', text], {
        cwd: scratch.root,
      });
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['f1', 'f2', 'f3', 'f4', 'f5']);
    } finally {
      scratch.remove();
    }
  });
});
