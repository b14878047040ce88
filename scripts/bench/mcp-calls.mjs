// Time per `run` call over MCP (one long-lived `safe-run mcp`, the SDK's client on stdio) against
// `bash -c` of the same line spawned from Node, against the same line in one persistent bash (an
// agent's own shell tool: written to its stdin, read back up to a marker), and against a fresh
// `safe-run --agent --json compact` process per call (the harness form). Rounds alternate the four,
// so load changes hit all alike. Also the server's start: spawn to the answer of tools/list.
//   node scripts/bench/mcp-calls.mjs [--rounds N] [--json FILE]   (npm run bench -- --only mcp runs it too)
// --json FILE also writes every sample there (npm run bench reads it for its table of goals).
// Every process runs with PATH, HOME and LC_ALL only, as the other sections of the bench: a
// NODE_EXTRA_CA_CERTS in the caller's environment would add its parsing to every Node start.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, range } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'safe-run');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 20;
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt === -1 ? null : process.argv[jsonAt + 1];
// The last line has a for loop, which safe-run's interpreter runs as the others (one row per pass;
// it went to bash as one stage before the interpreter ran loops).
const LINES = [
  'true',
  'echo one; echo two; echo three',
  'echo hi | wc -c',
  'cd src && ls | wc -l',
  'cat missing.txt | wc -l',
  'for f in src/*; do echo $f; done | wc -l',
];

function spawnTimed(argv, cwd, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - t0));
  });
}

// One bash for every call, as an agent's shell tool keeps one: the line, then a marker line to read up to.
function persistentBash(cwd, env) {
  const bash = spawn('bash', ['--norc', '--noprofile'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  bash.stderr.resume();
  let pending = '';
  let waiter = null;
  bash.stdout.on('data', (chunk) => {
    pending += chunk.toString();
    const at = pending.indexOf('__SR_DONE__\n');
    if (at !== -1 && waiter) {
      pending = pending.slice(at + 12);
      const done = waiter;
      waiter = null;
      done();
    }
  });
  return {
    run(line) {
      const t0 = performance.now();
      return new Promise((resolve) => {
        waiter = () => resolve(performance.now() - t0);
        bash.stdin.write(`cd ${JSON.stringify(cwd)}; ${line}\nprintf '\\n__SR_DONE__\\n'\n`);
      });
    },
    close: () => bash.stdin.end(),
  };
}

async function startupTimed(env, dir) {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: dir, env }));
  await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

async function callTimed(client, command, cwd) {
  const t0 = performance.now();
  // Each call starts in the same directory, as the bash and CLI runs do.
  await client.callTool({ name: 'run', arguments: { command, cwd } });
  return performance.now() - t0;
}

const ms = (value) => `${value.toFixed(1)} ms`;

async function main() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-bench-mcp-')));
  fs.mkdirSync(path.join(dir, 'src'));
  for (const name of ['a', 'b', 'c']) fs.writeFileSync(path.join(dir, 'src', name), '');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    LC_ALL: 'C',
    SAFE_RUN_FACTS: path.join(dir, 'facts.jsonl'),
  };
  const startups = [];
  for (let i = 0; i < Math.min(rounds, 5); i += 1) startups.push(await startupTimed(env, dir));
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: dir, env }));
  for (let i = 0; i < 3; i += 1) await callTimed(client, 'true', dir);
  const shell = persistentBash(dir, env);
  await shell.run('true');

  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${load}, ${rounds} rounds`);
  const samples = { load, startups, lines: [] };
  console.log(
    `server start to the answer of tools/list: ${ms(median(startups))} (median of ${startups.length})\n`,
  );
  console.log(
    '| line | bash -c (median, min-max) | persistent bash | MCP run call | vs bash -c | vs persistent bash | safe-run --agent --json compact -c | vs bash -c |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const line of LINES) {
    const bash = [];
    const kept = [];
    const mcp = [];
    const cli = [];
    for (let round = 0; round < rounds; round += 1) {
      bash.push(await spawnTimed(['bash', '-o', 'pipefail', '-c', line], dir, env));
      kept.push(await shell.run(line));
      mcp.push(await callTimed(client, line, dir));
      cli.push(await spawnTimed([BIN, '--agent', '--json', 'compact', '-c', line], dir, env));
    }
    samples.lines.push({ line, bash, kept, mcp, cli });
    const ratio = (a, b) => median(a.map((x, i) => x / b[i])).toFixed(2);
    const cell = (values) =>
      `${ms(median(values))} (${range(values)
        .map((x) => x.toFixed(1))
        .join('-')})`;
    console.log(
      `| \`${line.replace(/\|/g, '\\|')}\` | ${cell(bash)} | ${cell(kept)} | ${cell(mcp)} | ${ratio(mcp, bash)}x | ${ratio(mcp, kept)}x | ${cell(cli)} | ${ratio(cli, bash)}x |`,
    );
  }
  shell.close();
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify(samples)}\n`);
}

await main();
