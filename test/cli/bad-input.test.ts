import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-bad-input-'));
const marker = path.join(dir, 'started');
const protoSpec = path.join(dir, 'proto.yaml');
fs.writeFileSync(protoSpec, `version: 1\nstages:\n  - run: [touch, ${marker}]\n    env: {__proto__: x}\n`);

// Values that were accepted (and meant something else) before: each is one line and exit 125, and
// nothing starts.
describe('bad input that used to be accepted', () => {
  const cases: [string, string[], RegExp][] = [
    ['an empty --report', ['--report', ''], /^--report: empty; name a file$/],
    ['an empty --log-dir', ['--log-dir', ''], /^--log-dir: empty; name a directory$/],
    ['an empty --max-stdout', ['--max-stdout', ''], /^--max-stdout: "" is not a size/],
    ['an empty --stdin', ['--stdin', ''], /^--stdin: empty; name a file, or inherit or null$/],
    ['a directory as --stdin', ['--stdin', '/etc'], /^stdin \/etc: is a directory; name a file/],
    ['a fraction of a byte', ['--max-stdout', '1.5'], /^--max-stdout: "1.5" is not a whole number of bytes/],
    ['an empty --mask', ['--mask', ''], /^--mask "": not a variable name/],
    ['a value given to --mask', ['--mask', 'A=B'], /^--mask "A=B": not a variable name/],
    [
      'an empty --expect-cmd',
      ['--output', marker, '--expect-cmd', ''],
      /^expect-cmd "": empty; name a checker program$/,
    ],
    ['--stdin under a file', ['--stdin', '/dev/null/x'], /^stdin \/dev\/null\/x: no such file$/],
    ['--cwd under a file', ['--cwd', '/dev/null/x'], /^--cwd \/dev\/null\/x: no such directory$/],
    [
      '--report under a file',
      ['--report', '/dev/null/x'],
      /^--report \/dev\/null\/x: directory \/dev\/null does not/,
    ],
    [
      '--junit under a file',
      ['--junit', '/dev/null/x'],
      /^--junit \/dev\/null\/x: directory \/dev\/null does not/,
    ],
    [
      '--output under a file',
      ['--output', '/dev/null/x'],
      /^--output \/dev\/null\/x: directory \/dev\/null does not/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what}`, async () => {
      const result = await runCli(['--no-facts', ...args, '--', 'touch', marker]);
      expect(result.code).toBe(125);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.replace(/^safe-run: /, '')).toMatch(message);
      expect(fs.existsSync(marker)).toBe(false);
    });
  }

  for (const flag of ['-c', '--command', '-f', '--script', '--output']) {
    it(`refuses ${flag} given twice instead of running only the second`, async () => {
      const result = await runCli(['--no-facts', flag, `touch ${marker}`, flag, 'true']);
      expect(result.code).toBe(125);
      const short = flag === '--command' ? '-c' : flag;
      expect(result.stderr).toMatch(
        new RegExp(`^safe-run: .*${short} was given twice, and only one is used; give it once .*\n$`),
      );
      expect(fs.existsSync(marker)).toBe(false);
    });
  }

  it('refuses a spec under a file (-f /dev/null/x) in one line', async () => {
    const result = await runCli(['--no-facts', '-f', '/dev/null/x']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe('safe-run: /dev/null/x: no such file (a parent is not a directory)\n');
  });

  it('refuses an empty --session before the text runs', async () => {
    const result = await runCli(['--no-facts', '--session', '', '-c', `touch ${marker}`]);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe('safe-run: --session: empty; name a file\n');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('refuses __proto__ as a spec env key instead of dropping it', async () => {
    const result = await runCli(['--no-facts', '-f', protoSpec]);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      `safe-run: ${protoSpec}: stages[0].env.__proto__: __proto__ cannot be passed to a stage; use another name\n`,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('refuses a spec that does not end within 1MiB (-f /dev/zero) instead of reading forever', async () => {
    const result = await runCli(['--no-facts', '-f', '/dev/zero']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe('safe-run: /dev/zero: more than 1.0 MiB; a spec file is at most 1.0 MiB\n');
  });
});

// A shell enters a new directory and removes it, then becomes safe-run with `args`, still standing in it.
function inRemovedDirectory(name: string, args: string[]) {
  const script = 'mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec "$@"';
  return spawnSync(
    'sh',
    ['-c', script, 'sh', path.join(dir, name), process.execPath, BIN, '--no-facts', ...args],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

describe('a working directory removed before safe-run starts', () => {
  it('is one line and exit 125, not an internal error, and nothing starts', () => {
    const result = inRemovedDirectory('gone', ['-q', '--', 'touch', marker]);
    expect(result.status).toBe(125);
    expect(result.stderr).toBe(
      'safe-run: the current directory no longer exists (it was removed after the shell entered it); cd to an existing directory and run safe-run again\n',
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('is no obstacle to --cwd, which names a directory that exists', () => {
    const result = inRemovedDirectory('gone-too', ['-q', '--cwd', dir, '-c', 'pwd']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${dir}\n`);
  });
});
