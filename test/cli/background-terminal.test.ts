import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const SR = `"${process.execPath}" "${BIN}" --no-facts -q`;

// Runs `line` in an interactive bash with job control on a fresh pseudo-terminal (script(1)).
function onTerminal(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'script',
      ['-qec', `bash --norc --noprofile -i -c ${JSON.stringify(line)}`, '/dev/null'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out.replace(/\r/g, ''));
    });
  });
}

describe.skipIf(!hasScript)('safe-run started in the background at an interactive shell', () => {
  it('says that a stage reading stdin would take the terminal, when stdin is the terminal', async () => {
    const out = await onTerminal(`set -m; ${SR} -- true & wait; echo end`);
    expect(out).toContain('safe-run: warning: started in the background with stdin from the terminal');
    expect(out).toContain('end\n');
  });

  it('says nothing in the foreground, or when stdin was given', async () => {
    const out = await onTerminal(`set -m; ${SR} -- true; ${SR} --stdin null -- true & wait; echo end`);
    expect(out).not.toContain('warning');
    expect(out).toContain('end\n');
  });
});
