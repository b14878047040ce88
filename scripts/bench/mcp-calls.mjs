// Time per `run` call over MCP (one long-lived `safe-run mcp`, the SDK's client on stdio) against
// `bash -c` of the same line spawned from Node, and against a fresh `safe-run --agent --json compact`
// process per call (the harness form). Rounds alternate the three, so load changes hit all alike.
//   node scripts/bench/mcp-calls.mjs [--rounds N]
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
// The last line has a for loop, which the shell front end hands to bash (--fallback bash) as one stage.
const LINES = [
  'true',
  'echo hi | wc -c',
  'cd src && ls | wc -l',
  'cat missing.txt | wc -l',
  'for f in src/*; do echo $f; done | wc -l',
];

function spawnTimed(argv, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 125) refused.add(argv.join(' '));
      resolve(performance.now() - t0);
    });
  });
}

async function callTimed(client, command, cwd) {
  const t0 = performance.now();
  // Each call starts in the same directory, as the bash and CLI runs do.
  await client.callTool({ name: 'run', arguments: { command, cwd } });
  return performance.now() - t0;
}

// Lines the CLI refused (exit 125): -c without --fallback bash refuses what it does not interpret.
const refused = new Set();
const ms = (value) => `${value.toFixed(1)} ms`;

async function main() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-bench-mcp-')));
  fs.mkdirSync(path.join(dir, 'src'));
  for (const name of ['a', 'b', 'c']) fs.writeFileSync(path.join(dir, 'src', name), '');
  const env = { ...process.env, SAFE_RUN_FACTS: path.join(dir, 'facts.jsonl') };
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: dir, env }),
  );
  await client.listTools();
  const startup = performance.now() - t0;
  for (let i = 0; i < 3; i += 1) await callTimed(client, 'true', dir);

  console.log(
    `node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${rounds} rounds`,
  );
  console.log(`server start + initialize + tools/list: ${ms(startup)}\n`);
  console.log(
    '| line | bash -c (median, min-max) | MCP run call | ratio | safe-run --agent --json compact -c | ratio |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const line of LINES) {
    const bash = [];
    const mcp = [];
    const cli = [];
    for (let round = 0; round < rounds; round += 1) {
      bash.push(await spawnTimed(['bash', '-o', 'pipefail', '-c', line], dir));
      mcp.push(await callTimed(client, line, dir));
      cli.push(await spawnTimed([process.execPath, BIN, '--agent', '--json', 'compact', '-c', line], dir));
    }
    const ratio = (a, b) => median(a.map((x, i) => x / b[i])).toFixed(2);
    const cell = (values) =>
      `${ms(median(values))} (${range(values)
        .map((x) => x.toFixed(1))
        .join('-')})`;
    const note = [...refused].some((argv) => argv.endsWith(` -c ${line}`)) ? ' (refused, exit 125)' : '';
    console.log(
      `| \`${line.replace(/\|/g, '\\|')}\` | ${cell(bash)} | ${cell(mcp)} | ${ratio(mcp, bash)}x | ${cell(cli)}${note} | ${ratio(cli, bash)}x |`,
    );
  }
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
