import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockedProcess, Report } from '../../src/types.js';
import { descendants, killAll, yesBlockedOnSleep } from '../hang/helpers.js';
import { BIN, FIXTURES, runCli } from '../helpers/cli.js';

interface RunResult {
  text: string;
  isError: boolean;
  structured: { cwd: string; fallback: { reason: string } | null; report: Report; exitCode: number };
}

let dir: string;
let client: Client;

async function run(args: Record<string, unknown>): Promise<RunResult> {
  const result = await client.callTool({ name: 'run', arguments: { report: 'full', ...args } }, undefined, {
    timeout: 120_000,
  });
  const content = result.content as { type: string; text: string }[];
  return {
    text: content.map((part) => part.text).join(''),
    isError: Boolean(result.isError),
    structured: result.structuredContent as RunResult['structured'],
  };
}

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-mcp-test-')));
  fs.mkdirSync(path.join(dir, 'src'));
  for (const name of ['a.ts', 'b.ts', 'c.ts']) fs.writeFileSync(path.join(dir, 'src', name), '');
  const env = { ...process.env, SAFE_RUN_FACTS: path.join(dir, 'facts.jsonl') } as Record<string, string>;
  client = new Client({ name: 'safe-run-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: dir,
      env,
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('safe-run mcp over stdio', () => {
  it('lists its tools, and the description of run states every limit a call can meet', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'inspect',
      'job_input',
      'job_kill',
      'job_output',
      'jobs',
      'run',
    ]);
    const runTool = tools.find((tool) => tool.name === 'run')!;
    expect(runTool.description).toMatch(/stdin is closed/);
    expect(runTool.description).toMatch(
      /time 2m0s per call \("timeout" seconds; giving it also lifts the idle limit\)/,
    );
    expect(runTool.description).toMatch(/idle 1m0s without any output \("idleTimeout"\)/);
    expect(runTool.description).toMatch(/quiet for 2\.00s after printing a question/);
    expect(runTool.description).toMatch(/up to 30,000 bytes, head and tail \("budget" changes it\)/);
    expect(runTool.description).toMatch(/ends the whole call not ok/);
    expect(Object.keys(runTool.inputSchema.properties ?? {}).sort()).toEqual([
      'background',
      'budget',
      'command',
      'cwd',
      'env',
      'idleTimeout',
      'report',
      'stdin',
      'timeout',
      'yield',
    ]);
    expect(runTool.inputSchema.required).toEqual(['command']);
    // The structured result is described, so that a client can check it.
    expect(Object.keys(runTool.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['ok', 'exitCode', 'stages', 'cwd', 'output', 'job']),
    );
  });

  it('runs `cd src && ls | wc -l`, and the next call starts in src', async () => {
    const first = await run({ command: 'cd src && ls | wc -l' });
    expect(first.isError).toBe(false);
    // The shell front end: one row per command, cd included, and no bash in between.
    expect(first.structured.report.stages.map((stage) => stage.name)).toEqual(['cd', 'ls', 'wc']);
    expect(first.structured.report.stages[2]!.stdout.text?.trim()).toBe('3');
    expect(first.structured.fallback).toBeNull();
    expect(first.structured.report.fallback).toBeNull();
    expect(first.structured.cwd).toBe(path.join(dir, 'src'));
    expect(first.text).toContain(`cwd: ${path.join(dir, 'src')}`);

    const second = await run({ command: 'pwd' });
    expect(second.structured.fallback).toBeNull();
    expect(second.structured.report.stages[0]!.stdout.text).toBe(`${path.join(dir, 'src')}\n`);
    expect(second.text).toMatch(/^--- output ---\n/);
  });

  it('keeps exported variables between calls and nothing else', async () => {
    await run({ command: 'export GREETING=hello; PLAIN=kept-only-in-bash' });
    const exported = await run({ command: 'printenv GREETING' });
    expect(exported.structured.report.stages[0]!.stdout.text).toBe('hello\n');
    const plain = await run({ command: 'echo "[$PLAIN]"' });
    expect(plain.structured.report.stages[0]!.stdout.text).toBe('[]\n');
    const once = await run({ command: 'printenv ONLY_NOW', env: { ONLY_NOW: 'yes' } });
    expect(once.structured.report.stages[0]!.stdout.text).toBe('yes\n');
    const gone = await run({ command: 'printenv ONLY_NOW' });
    expect(gone.structured.report.stages[0]!.exitCode).toBe(1);
    // The same through bash, which exports what it was given: still for that call only.
    const viaBash = await run({ command: 'echo "[$ONLY_NOW]"', env: { ONLY_NOW: 'yes' } });
    expect(viaBash.structured.report.stages[0]!.stdout.text).toBe('[yes]\n');
    expect((await run({ command: 'printenv ONLY_NOW' })).structured.report.stages[0]!.exitCode).toBe(1);
  });

  it('says that a function an earlier call defined does not carry over, instead of "install the program"', async () => {
    const defined = await run({ command: 'say_hi() { echo "hi $1"; }; say_hi there' });
    expect(defined.text).toContain('--- output ---\nhi there\n');
    const later = await run({ command: 'say_hi again' });
    expect(later.isError).toBe(true);
    expect(later.structured.exitCode).toBe(127);
    const next =
      'stage 1 "say_hi" could not start: say_hi is a function an earlier call defined, and functions do not carry over from one call to the next (the directory and exported variables do): define say_hi in the call that uses it, or put it in a file and source that file in that call';
    expect(later.text).toContain(`\nnext: ${next}\n`);
    expect(later.structured.report.next).toBe(next);
    // A name no call defined keeps the advice for a missing program.
    const missing = await run({ command: 'no_such_program_here' });
    expect(missing.text).toContain('fix the machine (install the program');
  });

  it('starts every call at the same SHLVL, as bash -c started by the client would', async () => {
    const levels: string[] = [];
    for (let call = 0; call < 3; call += 1) {
      levels.push((await run({ command: 'echo $SHLVL' })).structured.report.stages[0]!.stdout.text!);
    }
    expect(new Set(levels).size, levels.join(',')).toBe(1);
  });

  it('hands text the front end refuses to bash as one stage, and still carries its directory', async () => {
    const text = 'f=<(true); mkdir -p deeper && cd deeper; pwd';
    const result = await run({ command: text });
    expect(result.structured.report.stages.map((stage) => stage.name)).toEqual(['bash']);
    expect(result.structured.report.fallback?.construct).toBe('<( ... )');
    expect(result.structured.fallback?.reason).toContain('<( ... )');
    expect(result.structured.report.stages[0]!.argv.at(-1)).toBe(text);
    expect(result.text).toContain('run by bash (--fallback bash): <( ... ) at column 3');
    expect(result.structured.cwd).toBe(path.join(dir, 'src', 'deeper'));
    const where = await run({ command: 'pwd' });
    expect(where.structured.report.stages[0]!.stdout.text).toBe(`${path.join(dir, 'src', 'deeper')}\n`);
    // A fallback whose EXIT trap is replaced leaves no state: the result says so.
    const lost = await run({ command: 'trap "" EXIT; f=<(true); cd /' });
    expect(lost.structured.cwd).toBe(path.join(dir, 'src', 'deeper'));
    expect(lost.text).toContain('(unchanged: bash left no state behind');
    expect((await run({ command: 'cd ..' })).structured.cwd).toBe(path.join(dir, 'src'));
  });

  it('says that text which is not shell at all was not run', async () => {
    const result = await run({ command: 'echo "unclosed' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^nothing was run: -c: /);
  });

  it('runs calls that arrive together one after the other, each from where the previous ended', async () => {
    const [down, where, up] = await Promise.all([
      run({ command: 'cd / && cd "$OLDPWD" && mkdir -p deeper && cd deeper' }),
      run({ command: 'pwd' }),
      run({ command: 'cd ..' }),
    ]);
    expect(down.structured.cwd).toBe(path.join(dir, 'src', 'deeper'));
    expect(where.structured.report.stages[0]!.stdout.text).toBe(`${path.join(dir, 'src', 'deeper')}\n`);
    expect(up.structured.cwd).toBe(path.join(dir, 'src'));
  });

  it('reports a failing pipeline stage by stage', async () => {
    const result = await run({ command: 'cat missing.txt | wc -l' });
    expect(result.isError).toBe(true);
    const [cat, wc] = result.structured.report.stages;
    expect(cat).toMatchObject({ name: 'cat', status: 'failed', exitCode: 1 });
    expect(wc).toMatchObject({ name: 'wc', status: 'ok', exitCode: 0 });
    expect(result.structured.exitCode).toBe(1);
    expect(result.text).toMatch(/^1 +cat +failed +1 /m);
    expect(result.text).toMatch(/^2 +wc +ok +0 /m);
    expect(result.text).toContain('not ok, exit 1');
    expect(result.text).toContain('No such file or directory');
  });

  it("quotes the error line of a Node crash in next, not Node's version line or the stack", async () => {
    const crash = 'node -e "throw new Error(\'kaboom\')"';
    const result = await run({ command: crash });
    expect(result.text).toContain('\nNode.js v');
    expect(result.structured.report.next).toBe(
      'stage 1 "node" failed with exit 1; its last stderr line: "Error: kaboom"',
    );
    // The same advice in the compact line a harness reads.
    const cli = await runCli(['--agent', '--json', 'compact', '-c', crash], { cwd: dir });
    expect(JSON.parse(cli.stdout).next).toBe(
      'stage 1 "node" failed with exit 1; its last stderr line: "Error: kaboom"',
    );
  });

  it('stops a command that waits for an answer, and says which question', async () => {
    const ask = path.join(FIXTURES, 'agent', 'ask');
    const result = await run({ command: ask });
    const stage = result.structured.report.stages[0]!;
    expect(stage.stop?.reason).toBe('waiting for an answer: Overwrite config.json? [y/N]');
    // The prompt ended it, not the 2-minute limit.
    expect(result.structured.report.verdict.reason).toContain('waiting for an answer');
    expect(result.text).toContain('waiting for an answer: Overwrite config.json? [y/N]');

    const answered = await run({ command: ask, stdin: 'y\n' });
    expect(answered.structured.report.stages[0]!.stdout.text).toBe(
      'Overwrite config.json? [y/N] overwritten\n',
    );
  });

  it('inspect explains a real hung tree: yes blocked on the pipe sleep never reads', async () => {
    const root = spawn('sh', ['-c', 'yes | sleep 100'], { stdio: 'ignore' });
    try {
      const yes = await yesBlockedOnSleep(root.pid!, 15_000);
      const result = await client.callTool({ name: 'inspect', arguments: { pid: root.pid! } });
      expect(result.isError).toBeFalsy();
      const document = result.structuredContent as { root: number; processes: BlockedProcess[] };
      expect(document.root).toBe(root.pid);
      const sleep = document.processes.find((entry) => entry.command === 'sleep 100')!;
      const entry = document.processes.find((entry) => entry.pid === yes)!;
      const said = `blocked writing to stdout, a pipe whose only reader, pid ${sleep.pid} \`sleep 100\`, never reads it`;
      expect(entry.explanation).toBe(said);
      expect((result.content as { text: string }[])[0]!.text).toContain(`pid ${yes} S \`yes\`: ${said}`);
    } finally {
      killAll([...descendants(root.pid!), root.pid!]);
    }
  });

  it('inspect says when there is no such process', async () => {
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('close', resolve));
    const result = await client.callTool({ name: 'inspect', arguments: { pid: gone.pid! } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toBe(
      `inspect ${gone.pid}: no process ${gone.pid} (it may have exited); find it with: ps -ef`,
    );
  });
});
