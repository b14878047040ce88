import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// kill aimed at the shell itself, the ERR trap and PIPESTATUS, each compared with
// `bash -o pipefail -c`. `kill -0 $$` once ended the text with 143 (the shell's pid is safe-run's own,
// and the builtin treated any signal to it as fatal); `trap ... ERR` was accepted and never run;
// ${PIPESTATUS[@]} was always empty.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signals-traps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

async function sameAsBash(text: string): Promise<void> {
  const { bash, ours } = await againstBash(text, { cwd: root, env });
  expect(ours, text).toEqual(bash);
}

describe('kill aimed at the shell itself', () => {
  it('is delivered to the interpreted shell: signal 0 succeeds, a trap runs, an ignored one does nothing', async () => {
    for (const text of [
      'kill -0 $$ && echo alive',
      'kill -s 0 0 && echo group',
      'trap "echo term" TERM; kill -TERM $$; echo after',
      'trap "echo usr1 \\$?" USR1; false; kill -USR1 $$; echo "after $?"',
      "trap '' TERM; kill $$; echo after",
      'trap "echo bye; exit 7" HUP; kill -HUP $$; echo never',
    ])
      await sameAsBash(text);
  });

  it('ends the text with 128+n for an untrapped fatal signal, saying so, as bash dies of it', async () => {
    const { bash, ours, report } = await againstBash('echo before; kill -INT $$; echo never', {
      cwd: root,
      env,
    });
    // bash died of the signal (spawnSync gives no code then); safe-run reports 128+n as a shell would.
    expect(ours.stdout).toBe(bash.stdout);
    expect(ours.code).toBe(130);
    const stderr = report.stages.map((stage) => stage.stderr.text).join('');
    expect(stderr).toMatch(/ended by SIGINT, which kill sent to it/);
  });

  it('never signals a process the text did not start', async () => {
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const result = await runCli(['--no-facts', '-c', `kill -TERM ${stranger.pid}; echo "status $?"`], {
        cwd: root,
        env,
      });
      expect(result.stdout).toContain('status 1');
      expect(result.stderr).toMatch(/not a process this text started/);
      // Still there: signal 0 reaches it.
      expect(process.kill(stranger.pid!, 0)).toBe(true);
    } finally {
      stranger.kill('SIGKILL');
    }
  });

  it('still stops the text’s own job by its pid', async () => {
    await sameAsBash('sleep 30 & kill -0 $! && echo running; kill $!; wait $!; echo "status $?"');
  });
});

describe("a command substitution's EXIT trap", () => {
  // It never ran: `x=$(trap "echo sub" EXIT; echo in)` gave "in" where bash gives "in\nsub".
  it('runs as the substitution ends, into its output; an exit there gives the status', async () => {
    for (const text of [
      'x=$(trap "echo sub" EXIT; echo in); echo "[$x]"',
      'x=$(trap "echo sub" EXIT; exit 3); echo "[$x] $?"',
      'x=`trap "echo sub" EXIT; echo in`; echo "[$x]"',
      'f() { trap "echo fx" EXIT; echo f; }; x=$(f); echo "[$x]"',
      'x=$(trap "echo sub; exit 4" EXIT; echo in); echo "[$x] $?"',
      'trap "echo top" EXIT; x=$(echo in); echo "[$x]"',
    ])
      await sameAsBash(text);
  });
});

describe('the ERR trap', () => {
  it('runs after a failed command, pipeline or subshell where set -e would apply, with its $?', async () => {
    for (const text of [
      'trap "echo err" ERR; false; echo after',
      'trap "echo err \\$?" ERR; (exit 3); echo "after $?"',
      'trap "echo err" ERR; false | true; true | false; { false; }; x=$(false); echo x',
      'trap "echo err" ERR; false && true; true && false; ! false; if false; then :; fi; while false; do :; done; echo after',
      'trap "echo err" ERR; f(){ false; echo inside; return 2; }; f; echo after',
      'trap "echo err; false" ERR; false; echo after',
      'set -e; trap "echo err \\$?" ERR; false; echo never',
      'trap "echo err" ERR; trap - ERR; false; echo after',
    ])
      await sameAsBash(text);
  });

  it('refuses DEBUG traps, which it does not run, with the way out', async () => {
    for (const text of ['trap "echo x" DEBUG; echo hi', 'f(){ trap "echo r" DEBUG; }; f']) {
      const result = await runCli(['--no-facts', '-c', text], { cwd: root, env });
      expect(result.code, text).toBe(125);
      expect(result.stderr, text).toMatch(/trap .*DEBUG.*--fallback bash/);
    }
  });
});

describe('PIPESTATUS', () => {
  it('holds the statuses of the last pipeline, one for a simple command, as an indexed array', async () => {
    await sameAsBash(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'false | true; echo "${PIPESTATUS[@]}" ${#PIPESTATUS[@]} ${PIPESTATUS[1]} $PIPESTATUS; (exit 3); echo "${PIPESTATUS[@]}"; ! false; echo "${PIPESTATUS[*]}"; { true | false | true; }; echo "${PIPESTATUS[@]}" "${!PIPESTATUS[@]}"',
    );
  });
});
