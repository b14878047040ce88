import { describe, expect, it } from 'vitest';
import { PromptWatch, promptIn } from '../../src/agent/prompt-line.js';
import { monotonicMs } from '../../src/monotonic-ms.js';

describe('promptIn', () => {
  it.each([
    'Do you want to continue? [Y/n] ',
    'Overwrite config.json? (y/n)',
    'Is this ok [y/N]: ',
    'Password:',
    '[sudo] password for ci: ',
    'Enter passphrase for key /root/.ssh/id_ed25519:',
    "Username for 'https://github.com':",
    'Are you sure you want to continue connecting (yes/no/[fingerprint])?',
    'Proceed with the installation?',
    'Press any key to continue . . .',
    'package name: (demo)',
  ])('takes %j for a prompt', (line) => {
    expect(promptIn(`some output\n${line}`)).toBe(line.trim());
  });

  it.each([
    'Compiling 12 files...',
    'Tests: 3 passed, 0 failed',
    'error: password authentication failed for user "ci"',
    'Continuing in 3 seconds',
    'warning: the option [y/n] is deprecated, use --yes',
    '',
  ])('does not take %j for a prompt', (line) => {
    expect(promptIn(`build output\n${line}\n`)).toBeNull();
  });

  it('reads the last non-empty line, past trailing blank lines', () => {
    expect(promptIn('Continue? [y/N]\n\n  \n')).toBe('Continue? [y/N]');
  });

  it('treats a carriage return as the start of a new line', () => {
    expect(promptIn('50%\r100%\rPassword: ')).toBe('Password:');
  });
});

describe('PromptWatch', () => {
  it('reports a prompt only once the stream has been quiet long enough', () => {
    const watch = new PromptWatch();
    watch.push(Buffer.from('Continue? [y/N] '));
    const now = monotonicMs();
    expect(watch.waitingPrompt(1000, now)).toBeNull();
    expect(watch.waitingPrompt(1000, now + 1500)).toEqual({ kind: 'prompt', line: 'Continue? [y/N]' });
  });

  it('forgets the prompt once more output follows it', () => {
    const watch = new PromptWatch();
    watch.push(Buffer.from('Continue? [y/N] '));
    watch.push(Buffer.from('y\ninstalled 3 packages\n'));
    expect(watch.waitingPrompt(0, monotonicMs() + 10)).toBeNull();
  });

  it('takes a quiet full-screen program for one waiting, whatever it printed last', () => {
    const watch = new PromptWatch();
    watch.push(Buffer.from('\x1b[?1049h\x1b[H\x1b[2J# Please enter the commit message\n~\n~\n'));
    expect(watch.waitingPrompt(0, monotonicMs() + 10)).toEqual({ kind: 'full-screen' });
  });

  it('forgets the full screen once the program leaves it', () => {
    const watch = new PromptWatch();
    watch.push(Buffer.from('\x1b[?1049hless output'));
    watch.push(Buffer.from('\x1b[?1049lstill working\n'));
    expect(watch.waitingPrompt(0, monotonicMs() + 10)).toBeNull();
  });
});
