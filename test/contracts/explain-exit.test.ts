import { describe, expect, it } from 'vitest';
import { EXIT_CONTRACTS } from '../../src/contracts/exit-contracts.js';
import { contractFor, explainExit, lenientCodes, toolOf } from '../../src/contracts/explain-exit.js';

const MEANINGS: [argv: string[], code: number, meaning: RegExp | null, benign: boolean][] = [
  [['grep', 'x', 'f'], 1, /no line was selected/, true],
  [['/usr/bin/grep', 'x'], 2, /an error occurred/, false],
  [['egrep', 'x'], 1, /no line was selected/, true],
  [['fgrep', 'x'], 0, /a line was selected/, false],
  [['rg', 'x'], 1, /no line was selected/, true],
  [['rg', 'x'], 2, /even when some lines matched/, false],
  [['diff', 'a', 'b'], 1, /the inputs differ/, true],
  [['cmp', 'a', 'b'], 2, /trouble/, false],
  [['test', '-f', 'x'], 1, /false/, true],
  [['[', '-f', 'x', ']'], 2, /error in the expression/, false],
  [['curl', '-f', 'https://x'], 22, /HTTP error/, false],
  [['curl', 'https://x'], 28, /timed out/, false],
  [['curl', 'https://x'], 6, /resolve the host/, false],
  [['curl', 'https://x'], 7, /failed to connect/, false],
  [['wget', 'https://x'], 8, /server answered with an error/, false],
  [['git', 'diff', '--exit-code'], 1, /there are differences/, true],
  [['git', 'diff', '--quiet', 'HEAD'], 1, /there are differences/, true],
  [['git', 'diff'], 1, /subcommand failed/, false],
  [['git', 'status'], 128, /fatal/, false],
  [['git', 'grep', 'x'], 1, /no line was selected/, true],
  [['timeout', '1', 'sleep', '5'], 124, /timed out/, false],
  [['timeout', '1', 'nope'], 127, /not found/, false],
  [['ssh', 'host', 'true'], 255, /ssh itself failed/, false],
  [['ssh', 'host', 'false'], 1, null, false],
  [['rsync', '-a', 'a', 'b'], 24, /vanished/, true],
  [['rsync', '-a', 'a', 'b'], 23, /partial transfer/, false],
  [['make'], 2, /an error was encountered/, false],
  [['make', '-q', 'all'], 1, /not up to date/, true],
  [['pytest'], 5, /no tests were collected/, true],
  [['pytest'], 1, /some tests failed/, false],
  [['python3', '-m', 'pytest', '-q'], 4, /usage error/, false],
  [['npx', 'vitest', 'run'], 1, /some tests failed/, false],
  [['jest'], 1, /some tests failed/, false],
  [['npm', 'test'], 1, /failed/, false],
  [['tar', 'czf', 'a.tgz', 'd'], 1, /changed while it was read/, true],
  [['tar', 'xzf', 'a.tgz'], 2, /fatal/, false],
  [['gzip', '-d', 'a.gz'], 2, /warning/, true],
  [['xargs', 'rm'], 123, /exited with a status from 1 to 125/, false],
  [['xargs', 'rm'], 127, /not found/, false],
  [['find', '.'], 1, /could not be visited/, false],
  [['cat', 'x'], 1, null, false],
  [['grep', 'x'], 3, null, false],
];

describe('exit-code contracts', () => {
  it.each(MEANINGS)('%j exiting %i is explained by its contract', (argv, code, meaning, benign) => {
    const explained = explainExit(argv, code);
    if (meaning === null) {
      expect(explained).toBeNull();
      return;
    }
    expect(explained?.meaning).toMatch(meaning);
    expect(Boolean(explained?.benign)).toBe(benign);
  });

  it.each([
    [['grep', 'x'], [1]],
    [['diff', 'a', 'b'], [1]],
    [['pytest'], [5]],
    [['git', 'diff', '--exit-code'], [1]],
    [['git', 'log'], []],
    [['curl', 'x'], []],
    [['cat'], null],
  ])('lenient for %j accepts %j besides 0', (argv, codes) => {
    expect(lenientCodes(argv)).toEqual(codes);
  });

  it.each([
    [['/usr/bin/grep'], 'grep'],
    [['python3', '-m', 'pytest'], 'pytest'],
    [['python3.12', '-m', 'pytest'], 'pytest'],
    [['npx', '--yes', 'jest'], 'jest'],
    [['python3', 'script.py'], 'python3'],
  ])('the tool behind %j is %s', (argv, tool) => {
    expect(toolOf(argv)).toBe(tool);
  });

  it('names every tool the issue lists', () => {
    const wanted = [
      'grep',
      'egrep',
      'fgrep',
      'rg',
      'diff',
      'cmp',
      'test',
      '[',
      'curl',
      'wget',
      'git',
      'timeout',
      'ssh',
      'rsync',
      'make',
      'pytest',
      'jest',
      'vitest',
      'npm',
      'tar',
      'gzip',
      'xargs',
      'find',
    ];
    for (const tool of wanted) expect(contractFor([tool]), tool).not.toBeNull();
  });

  it('never calls 0 benign nor lists a code outside 0-255', () => {
    for (const contract of EXIT_CONTRACTS) {
      for (const [code, meaning] of Object.entries(contract.codes)) {
        expect(Number(code)).toBeGreaterThanOrEqual(0);
        expect(Number(code)).toBeLessThanOrEqual(255);
        if (Number(code) === 0) expect(meaning.benign).toBeFalsy();
        expect(meaning.meaning.length).toBeGreaterThan(5);
      }
    }
  });
});
