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
      'if . ./bg.sh; then echo ok; fi',
      'command . ./bg.sh',
      'x=1 . ./bg.sh',
      '{ read a < f1; echo $a; } | { read b < f2; echo $b; } | sh -c "echo > f1"',
      '{ cat <<< a > f1; } | { read x < f1; }',
      'w(){ echo $1 > $1; }; w f1 | w f2 | { while read a; do :; done < f1; }',
      '{ exec 3>f1; echo a >&3; } | { exec 4<f1; read x <&4; }',
      'echo $(echo 1 > f1) | { read a < f1; }',
      'cat < f1 | cat < f2 | cat',
      'make 2>&1 | tee -a x > build.log',
    ];
    expect(widened.filter((text) => !wide(text))).toEqual([]);
  });

  it('is not for commands one after the other, whatever their redirections', () => {
    const narrow = [
      'cd x && npm test 2>&1 | tail -n 40',
      'make 2>&1 |& tee build.log',
      'cmd &> out.log; cmd2 &>> out.log',
      'a >&2 || b <&0',
      './configure && make -j2',
      'printf "%s\\n" a.b ./c',
      'ls x 2>/dev/null | head -n 3',
      'cat <<EOF | wc -l\na\nEOF',
      'cmd > out.log; cat out.log',
      'x=1; echo "$x" > file',
      'source_dir=1; evaluate',
    ];
    expect(narrow.filter(wide)).toEqual([]);
    expect(needsWidePool(planFromArgv(['sleep', '1'], { facts: null }))).toBe(false);
  });

  it('lets the groups of a pipeline wait in FIFO opens whose other ends another group opens', async () => {
    // Each group's redirection is opened on the pool while the elements run at once: five writers and
    // the reader of all five. With libuv's default 4 threads it waited until its time limit.
    const scratch = scratchDir('safe-run-pool-');
    try {
      const writers = [1, 2, 3, 4, 5].map((n) => `{ echo ${n} > f${n}; }`);
      const reader = '{ read a < f1; read b < f2; read c < f3; read d < f4; read e < f5; echo $a$b$c$d$e; }';
      const text = `mkfifo f1 f2 f3 f4 f5\n${[...writers, reader].join(' | ')}`;
      const result = await runCli(['--no-facts', '-q', '--timeout', '20s', '-c', text], {
        cwd: scratch.root,
      });
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: '12345\n' });
    } finally {
      scratch.remove();
    }
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
