import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// An expansion whose bytes are not UTF-8 cannot reach a program unchanged (Node passes arguments as
// UTF-8 strings): the step is refused when it is reached, instead of running with U+FFFD where bash
// passes the bytes. A builtin takes them as bash does (they never leave the shell).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'expansion-bytes-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };

describe('an expansion to bytes that are not UTF-8', () => {
  it('reaches a builtin as bash gives it', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    const { bash, ours } = await againstBash("echo $'\\xe9' | od -An -tx1; X=$'\\xe9'; echo ${#X}", {
      cwd: dir,
      env,
    });
    expect(ours).toEqual(bash);
  });

  it('is refused when it would reach a program', async () => {
    const result = await runCli(['--no-facts', '-q', '-c', "printf x; /usr/bin/printf $'\\xe9'"], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(125);
    expect(result.stdout).toBe('x');
  });

  it('is refused when a glob meets a file name in another encoding, after the steps before it ran', async () => {
    const sub = path.join(dir, 'latin1');
    fs.mkdirSync(sub);
    fs.writeFileSync(Buffer.concat([Buffer.from(`${sub}/caf`), Buffer.from([0xe9])]), '');
    const result = await runCli(['--no-facts', '--json', '-c', 'echo first; ls latin1/*'], { cwd: dir, env });
    expect(result.code).toBe(125);
    const report = JSON.parse(result.stdout);
    expect(report.stages.map((stage: { status: string }) => stage.status)).toEqual(['ok']);
    expect(report.steps.map((step: { skippedBecause?: string }) => step.skippedBecause ?? null)).toEqual([
      null,
      'refused',
    ]);
    expect(report.verdict.reason).toBe(
      'step 2 was refused: ls latin1/* at line 1, column 13 has an argument with bytes that are not UTF-8, which safe-run cannot pass to a program unchanged',
    );
  });

  it('is taken when the bytes are UTF-8, as bash takes it', async () => {
    const { bash, ours } = await againstBash("echo $'\\u00e9' $'\\xc3\\xa9' | od -An -tx1", {
      cwd: dir,
      env,
    });
    expect(ours).toEqual(bash);
  });
});

describe("shell variables past the kernel's limit for one string", () => {
  it("are the shell's own, as in bash: a builtin takes them whole", async () => {
    const text = `X=${'a'.repeat(70_000)}; X=$X$X; echo "\${#X}"; printf %s "$X" | wc -c`;
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
  });
});
