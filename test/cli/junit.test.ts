import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, type TestCase, type TestSuites } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { junitProblems, readValidJunit } from '../helpers/junit-schema.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-junit-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let count = 0;

// Runs safe-run with --junit into a fresh file and returns the parsed, schema-checked result.
async function junitOf(args: string[], env: Record<string, string> = {}) {
  count += 1;
  const file = path.join(root, `run-${count}.xml`);
  const result = await runCli(['--no-facts', '--junit', file, ...args], { env, cwd: root });
  const xml = await readValidJunit(file);
  const parsed = (await parse(xml)) as TestSuites;
  return { result, xml, parsed, suite: parsed.testsuite![0]!, cases: parsed.testsuite![0]!.testcase ?? [] };
}

function names(cases: TestCase[]): string[] {
  return cases.map((c) => c.name!);
}

describe('the JUnit file', () => {
  it('validates against junit-10.xsd; the schema check itself refuses skipped on <testsuites>', async () => {
    const { xml } = await junitOf(['-c', "sh -c 'echo oops >&2; exit 1' | cat"]);
    expect(xml).not.toMatch(/<testsuites[^>]*skipped=/);
    const bad = xml.replace('<testsuites name="safe-run"', '<testsuites name="safe-run" skipped="0"');
    expect((await junitProblems(bad)).join('\n')).toMatch(/attribute 'skipped' is not allowed/);
  });

  it('holds each stage stdout and stderr, a byte that is not UTF-8 escaped, a control character too', async () => {
    const command = `sh -c "printf 'caf\\351 \\033[31mred\\n' >&2; echo out; exit 2"`;
    const { cases } = await junitOf(['-c', command]);
    expect(cases[0]!['system-out']).toEqual(['out\n']);
    expect(cases[0]!['system-err']).toEqual(['caf\\xE9 \\x1B[31mred\n']);
  });

  it('says that binary data was not shown instead of dropping it', async () => {
    const { cases } = await junitOf(['--', 'sh', '-c', 'head -c 4000 /dev/zero >&2']);
    expect(cases[0]!['system-err']).toEqual(['(4000 bytes of binary data, not shown)']);
  });

  it('is no failure for a list whose verdict is ok (false && ...)', async () => {
    const { result, parsed, cases } = await junitOf(['-c', 'false && echo never; echo done']);
    expect(result.code).toBe(0);
    expect(parsed).toMatchObject({ tests: 2, failures: 0 });
    expect(cases.every((c) => c.failure === undefined)).toBe(true);
  });

  it('shows the list as written in the suite name, ! included, and names each testcase by step and command', async () => {
    const text = '! grep -q zzz /etc/hostname && echo "a b" | wc -l';
    const { suite, cases } = await junitOf(['-c', text]);
    expect(suite.name).toBe(`safe-run: ${text}`);
    expect(names(cases)).toEqual([
      'step 1, stage 1 "grep": grep -q zzz /etc/hostname',
      'step 2, stage 2 "echo": echo \'a b\'',
      'step 2, stage 3 "wc": wc -l',
    ]);
  });

  it('fails only the stages of the step that decided a failing list', async () => {
    const { result, parsed, cases } = await junitOf(['-c', 'false || true; sh -c "exit 4"']);
    expect(result.code).toBe(4);
    expect(parsed).toMatchObject({ failures: 1 });
    expect(cases.map((c) => c.failure !== undefined)).toEqual([false, false, true]);
  });

  it('makes the verdict the failing testcase when no stage is to blame (! true)', async () => {
    const { result, parsed, cases } = await junitOf(['-c', '! true']);
    expect(result.code).toBe(1);
    expect(parsed).toMatchObject({ tests: 2, failures: 1 });
    expect(cases.at(-1)).toMatchObject({ name: 'verdict' });
  });
});

describe('--junit DIR/', () => {
  it('writes a new file per run, named by the step, when every step of a job shares the flag', async () => {
    const dir = path.join(root, 'results');
    const env = { SAFE_RUN_OPTIONS: `--junit '${dir}/' --no-facts`, GITHUB_ACTION: '__run_2' };
    for (const command of ['true', 'false']) await runCli(['-c', command], { env, cwd: root });
    await runCli(['-c', 'true'], { env: { ...env, GITHUB_ACTION: 'unit tests' }, cwd: root });
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['safe-run-__run_2-2.xml', 'safe-run-__run_2.xml', 'safe-run-unit_tests.xml']);
    for (const file of files) await readValidJunit(path.join(dir, file));
    expect(fs.readFileSync(path.join(dir, 'safe-run-__run_2-2.xml'), 'utf8')).toContain('failures="1"');
  });

  it('refuses a directory that cannot be made, before anything starts', async () => {
    fs.writeFileSync(path.join(root, 'a-file'), '');
    const result = await runCli(['--no-facts', '--junit', path.join(root, 'a-file', 'sub/'), '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/^safe-run: --junit .*: .*a-file is not a directory\n$/);
  });
});
