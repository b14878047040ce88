// Secrets never leave safe-run unmasked (issue 15, item 7). A token in the environment
// (GITHUB_TOKEN, secret-looking) and a custom value (DEPLOY_ID, named with --mask) are put in argv,
// stage names, the environment, paths and the stages' output; every way safe-run prints or stores
// something is run for real, and all of it is searched for both values. The one place they may
// appear is the product stream (the last stage's stdout streamed whole, docs/output.md).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult, runCli, waitFor } from '../helpers/index.js';
import { readValidJunit } from '../helpers/junit-schema.js';

const TOKEN = 'ghp_SrLeakProbe0123456789abcdefXYZ';
const CUSTOM = 'cvQ-Private-4711-zq';
const SECRETS = [TOKEN, CUSTOM];
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sr-secrets-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// A directory whose name is the token: stage paths, cwd and the files safe-run resolves carry it.
const dir = path.join(scratch, `dir-${TOKEN}`);
const logs = path.join(scratch, 'logs');
const ledger = path.join(scratch, 'facts.jsonl');
const summary = path.join(scratch, 'summary.md');
fs.mkdirSync(dir);
fs.writeFileSync(
  path.join(dir, 'tool.sh'),
  '#!/bin/sh\necho "product $GITHUB_TOKEN"\necho "diagnostic $GITHUB_TOKEN $DEPLOY_ID" >&2\n',
  { mode: 0o755 },
);
const env = {
  GITHUB_TOKEN: TOKEN,
  DEPLOY_ID: CUSTOM,
  SAFE_RUN_FACTS: ledger,
  GITHUB_STEP_SUMMARY: summary,
};
const spec = (name: string, text: string) => {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  return file;
};
const goodSpec = spec(
  'good.yaml',
  `version: 1\nstages:\n  - name: deploy-${TOKEN}\n    run: [sh, -c, "echo using $API_SECRET >&2; cat"]\n    env: { API_SECRET: ${TOKEN}-env }\n  - name: notify-${CUSTOM}\n    run: [sh, -c, "cat; echo ${CUSTOM} >&2; exit 3"]\n`,
);

// Everything safe-run printed or wrote, by where it came from; the product stream is never added.
const seen: { where: string; text: string }[] = [];
const see = (where: string, text: string) => seen.push({ where, text });
// A whole value, or the first or last four characters of one: what a cut (a value shortened to 40
// characters, a command to 57) would leave of it.
const PIECES = SECRETS.flatMap((secret) => [secret, secret.slice(0, 4), secret.slice(-4)]);
const leaksIn = (text: string) => PIECES.filter((piece) => text.includes(piece));
function seeRun(where: string, result: CliResult, stdoutIsProduct = false): void {
  see(`${where}: stderr`, result.stderr);
  if (!stdoutIsProduct) see(`${where}: stdout`, result.stdout);
}
const mask = ['--mask', 'DEPLOY_ID'];
// Each CLI run is given up to 10 s on a loaded machine; a test's limit is that times its runs.
const PER_RUN_MS = 10_000;
const tool = [`${dir}/tool.sh`, TOKEN];

describe('secrets are masked on every path out of safe-run', () => {
  it(
    'table, GitHub output, step summary, JUnit, --report and logs: only the product has the token',
    async () => {
      const files = [
        '--report',
        path.join(scratch, 'report.json'),
        '--junit',
        path.join(scratch, 'junit.xml'),
      ];
      const args = [...mask, '--ci', 'github', '--log-dir', logs, ...files, '--cwd', dir, '-f', goodSpec];
      const failing = await runCli(args, { env: { ...env, GITHUB_ACTIONS: 'true' }, input: `in ${TOKEN}\n` });
      expect(failing.code).toBe(3);
      // Its stdout is the product stream (stdin, passed through): the one place left unmasked.
      expect(failing.stdout).toBe(`in ${TOKEN}\n`);
      seeRun('table (spec, github)', failing, true);
      const product = await runCli([...mask, '--log-dir', logs, '-c', `${tool.join(' ')} | cat`], { env });
      expect(product.code).toBe(0);
      // The documented exception, and proof the token really flowed through the stages.
      expect(product.stdout).toBe(`product ${TOKEN}\n`);
      seeRun('table (product)', product, true);
      // A step summary that cannot be written: the warning names its path, masked.
      const unwritable = await runCli(['--ci', 'github', '--', 'true'], {
        env: { ...env, GITHUB_STEP_SUMMARY: dir },
      });
      expect(unwritable.stderr).toContain('could not be written');
      seeRun('unwritable step summary', unwritable);
    },
    4 * PER_RUN_MS,
  );

  it(
    'JSON, compact JSON, GitLab output and timestamps',
    async () => {
      for (const form of [['--json'], ['--json', 'compact'], ['--ci', 'gitlab', '--timestamps']]) {
        const result = await runCli([...form, ...mask, '--log-dir', logs, '--cwd', dir, '-f', goodSpec], {
          env,
          input: `in ${TOKEN}\n`,
        });
        expect(result.code).toBe(3);
        seeRun(form.join(' '), result, form[0] === '--ci');
      }
    },
    3 * PER_RUN_MS,
  );

  it(
    'the facts ledger and `safe-run facts`',
    async () => {
      const curl = `curl -H 'Authorization: Bearer ${TOKEN}' https://x`;
      for (const program of [curl, `${dir}/missing-${CUSTOM}`]) {
        const result = await runCli([...mask, '--', program], { env });
        expect(result.code).toBe(127);
        seeRun(`not found ${program.slice(0, 4)}`, result);
      }
      const json = await runCli([...mask, '--json', '--', curl], { env });
      expect(JSON.parse(json.stdout).facts.length).toBeGreaterThan(0);
      seeRun('facts in the report', json);
      for (const args of [['facts'], ['facts', '--json'], ['facts', '--all']]) {
        const result = await runCli(args, { env });
        expect(result.code).toBe(0);
        seeRun(args.join(' '), result);
      }
      const ledgerText = fs.readFileSync(ledger, 'utf8');
      expect(ledgerText).toContain('Authorization: Bearer ***');
      see('the ledger file', ledgerText);
    },
    6 * PER_RUN_MS,
  );

  it(
    'every kind of exit-125 message, as text and as JSON',
    async () => {
      const missing = path.join(scratch, `nowhere-${TOKEN}`);
      const badSpec = spec('bad.yaml', `version: 1\ntimeout: ${TOKEN}\nstages:\n  - run: [echo, hi]\n`);
      const badEnv = spec(
        'bad-env.yaml',
        `version: 1\nstages:\n  - run: [echo]\n    env: { X: [${TOKEN}] }\n`,
      );
      const cases: [string[], Record<string, string>?][] = [
        [['--timeout', TOKEN, '--', 'true']],
        [[`--timeout=${TOKEN}`, '--', 'true']],
        // Quoted cut to its first 40 characters: the token's start is right before the cut.
        [['--timeout', `${'9'.repeat(30)}${TOKEN}`, '--', 'true']],
        [['--ok-codes', TOKEN, '--', 'true']],
        [['--max-stdout', CUSTOM, ...mask, '--', 'true']],
        [[...mask, '--kill-after', CUSTOM, '--', 'true']],
        [['--report', path.join(missing, 'r.json'), '--', 'true']],
        [['--output', path.join(missing, 'out'), '--', 'true']],
        [['--cwd', missing, '--', 'true']],
        [['--stdin', missing, '--', 'true']],
        [['-c', `coproc ${TOKEN}`]],
        [['-c', `echo ${TOKEN} |`]],
        [['-c', `echo "${TOKEN}`]],
        [['-f', badSpec]],
        [['-f', badEnv]],
        [['-f', `${missing}.yaml`]],
        [[`--${TOKEN}`]],
        [['--', 'true'], { SAFE_RUN_OPTIONS: `--timeout ${TOKEN}` }],
        [['--', 'true'], { SAFE_RUN_OPTIONS: `--mask DEPLOY_ID --max-stderr ${CUSTOM}` }],
        [['facts', `--${TOKEN}`]],
        [['facts', '--facts', dir, '--clear']],
        [['inspect', TOKEN]],
        [['mcp', `--${TOKEN}`]],
      ];
      for (const [args, extra] of cases) {
        const sub = ['facts', 'inspect', 'mcp'].includes(args[0]!);
        for (const json of sub ? [[]] : [[], ['--json']]) {
          const result = await runCli([...json, ...args], { env: { ...env, ...extra } });
          expect({ args, code: result.code }).toEqual({ args, code: 125 });
          expect(result.stderr).toMatch(/^safe-run: /);
          seeRun(`125 ${args.join(' ')} ${json.join('')}`, result);
        }
      }
    },
    2 * 25 * PER_RUN_MS,
  );

  it(
    'dry run, as text and JSON',
    async () => {
      for (const json of [[], ['--json']]) {
        for (const input of [
          ['-f', goodSpec],
          ['-c', `${tool.join(' ')} | cat`],
        ]) {
          const result = await runCli([...json, ...mask, '--dry-run', '--cwd', dir, ...input], { env });
          expect(result.code).toBe(0);
          seeRun(`dry run ${input[0]} ${json.join('')}`, result);
        }
      }
    },
    4 * PER_RUN_MS,
  );

  it(
    'the hang snapshot at a timeout, and --output check details',
    async () => {
      const hung = ['-c', `sh -c "sleep 60; : ${TOKEN} ${CUSTOM}" | cat ${dir}/tool.sh -`];
      for (const json of [[], ['--json']]) {
        const result = await runCli([...json, ...mask, '--timeout', '1s', ...hung], {
          env,
          deadlineMs: 60_000,
        });
        expect(result.code).toBe(124);
        seeRun(`timeout ${json.join('')}`, result);
      }
      const out = path.join(scratch, 'out.txt');
      const checks = [
        '--output',
        out,
        '--expect',
        'lines>=5',
        '--expect-cmd',
        `grep -q ${CUSTOM} ${dir}/tool.sh`,
      ];
      const result = await runCli(['--json', ...mask, ...checks, '--', 'echo', TOKEN], { env });
      expect(result.code).toBe(1);
      seeRun('--output checks', result);
    },
    3 * PER_RUN_MS,
  );

  it(
    'heartbeat, SIGUSR1 and `safe-run inspect` while a stage hangs',
    async () => {
      const child = spawn(
        process.execPath,
        [BIN, ...mask, '--heartbeat', '200ms', '--', 'sh', '-c', `read x; : ${TOKEN} ${CUSTOM}`],
        {
          env: { ...process.env, NO_COLOR: '1', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let err = '';
      child.stderr.on('data', (chunk) => (err += chunk));
      child.stdout.on('data', (chunk) => see('SIGUSR1 run: stdout', String(chunk)));
      const done = new Promise((resolve) => child.on('close', resolve));
      await waitFor('a heartbeat line', () => err.includes('heartbeat'), 30_000);
      child.kill('SIGUSR1');
      await waitFor('the SIGUSR1 report', () => err.includes('SIGUSR1, who waits'), 30_000);
      const clean = { GITHUB_TOKEN: undefined, DEPLOY_ID: undefined };
      for (const [args, extra] of [
        [['inspect', String(child.pid), ...mask], env],
        [['inspect', String(child.pid), '--json', ...mask], env],
        // From a shell that has neither value: they are found in the inspected processes' environment.
        [['inspect', String(child.pid), ...mask], clean],
      ] as const) {
        const result = await runCli([...args], { env: extra });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('read');
        seeRun(args.join(' '), result);
      }
      child.stdin.end();
      await done;
      see('SIGUSR1 run: stderr', err);
    },
    6 * PER_RUN_MS,
  );

  it.skipIf(!fs.existsSync('/usr/bin/script'))(
    'the live view on a terminal, while a secret is half written',
    async () => {
      // util-linux `script` gives safe-run a pty. The stage writes the first half of the custom value,
      // waits for a file the test creates once the live view has counted those bytes, then the rest:
      // nothing depends on how fast the machine is.
      const go = path.join(scratch, 'go');
      // The halves are cut from the variable by the stage: neither is in any argv.
      const stage = path.join(scratch, 'half.sh');
      const script = [
        '#!/bin/sh',
        'echo "working $GITHUB_TOKEN" >&2',
        'printf %s "$DEPLOY_ID" | head -c 9 >&2',
        'while [ ! -e "$1" ]; do sleep 0.05; done',
        'printf "%s\\n" "$DEPLOY_ID" | tail -c +10 >&2',
      ];
      fs.writeFileSync(stage, `${script.join('\n')}\n`, { mode: 0o755 });
      // The live view is drawn when stderr is a terminal and stdout is not.
      const line = `${BIN} --no-facts --mask DEPLOY_ID -c "${stage} ${go} | cat" >/dev/null`;
      const child = spawn('script', ['-qfec', line, '/dev/null'], {
        env: { ...process.env, ...env, SAFE_RUN_FACTS: undefined, NO_COLOR: undefined, TERM: 'xterm' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let shown = '';
      child.stdout.on('data', (chunk) => (shown += chunk));
      const done = new Promise((resolve) => child.on('close', resolve));
      const counted = `err ${`working ${TOKEN}\n`.length + 9} B`;
      await waitFor('the live view counting the half-written value', () => shown.includes(counted), 30_000);
      fs.writeFileSync(go, '');
      await done;
      expect(shown).toContain('working ***');
      // The value came whole in the end, and was masked.
      expect(shown).toContain('[half.sh] ***');
      see('live view (pty)', shown);
    },
    4 * PER_RUN_MS,
  );

  it(
    'the MCP run tool',
    async () => {
      const client = new Client({ name: 'secrets-test', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', ...mask],
        cwd: dir,
        env: { ...process.env, ...env } as Record<string, string>,
        stderr: 'pipe',
      });
      await client.connect(transport);
      try {
        const calls = [
          { command: `sh tool.sh ${CUSTOM} | cat` },
          { command: `cd . && echo ${TOKEN} ${CUSTOM}; ls` },
          { command: 'true', cwd: `gone-${TOKEN}` },
        ];
        for (const args of calls) {
          const result = await client.callTool({ name: 'run', arguments: args }, undefined, {
            timeout: 60_000,
          });
          see(`mcp ${args.command}`, JSON.stringify(result));
        }
      } finally {
        await client.close();
      }
    },
    4 * PER_RUN_MS,
  );

  it('finds neither value anywhere it looked, nor in any file or file name safe-run wrote', async () => {
    await readValidJunit(path.join(scratch, 'junit.xml'));
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'facts.jsonl']) {
      see(file, fs.readFileSync(path.join(scratch, file), 'utf8'));
    }
    for (const name of fs.readdirSync(logs)) {
      see(`log name ${name}`, name);
      see(`log ${name}`, fs.readFileSync(path.join(logs, name), 'utf8'));
    }
    for (const name of fs.readdirSync(scratch)) see(`file name ${name}`, name.replace(`dir-${TOKEN}`, 'dir'));
    // The searches had something to search: the runs above did print and write.
    expect(seen.filter((item) => item.text.includes('***')).length).toBeGreaterThan(20);
    const leaks = seen.flatMap(({ where, text }) => leaksIn(text).map((secret) => `${where}: ${secret}`));
    expect(leaks).toEqual([]);
  });
});
