// Retakes the transcripts of docs/agents.md: the same calls, in the same order, made by the MCP SDK's
// client to this checkout's `safe-run mcp`, in a demo directory set up as the doc says; printed in
// the doc's form, or written over the doc's blocks with --write. Build first (node scripts/build.mjs).
//   node scripts/docs/agents-transcript.mjs [--write] [--dir /tmp/demo]
// The demo directory is made afresh (a directory that is there and was not made by this script is
// refused, never removed). Pids, ports, times and the session's /tmp paths are the machine's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consoleLine, ROOT, startTranscript, writeDoc } from './transcript-client.mjs';

const argv = process.argv.slice(2);
const DEMO = argv.includes('--dir') ? path.resolve(argv[argv.indexOf('--dir') + 1]) : '/tmp/demo';
const MARK = '.agents-transcript';

function setUpDemo() {
  if (fs.existsSync(DEMO) && !fs.existsSync(path.join(DEMO, MARK))) {
    throw new Error(`${DEMO} exists and was not made by this script: remove it or pass --dir`);
  }
  fs.rmSync(DEMO, { recursive: true, force: true });
  fs.mkdirSync(path.join(DEMO, 'src'), { recursive: true });
  fs.writeFileSync(path.join(DEMO, MARK), '');
  for (const name of ['a.ts', 'b.ts', 'c.ts']) fs.writeFileSync(path.join(DEMO, 'src', name), '');
  fs.writeFileSync(path.join(DEMO, 'hello.txt'), 'hello from the dev server\n');
  for (const name of ['ask', 'ask-again']) {
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/agent', name), path.join(DEMO, name));
    fs.chmodSync(path.join(DEMO, name), 0o755);
  }
}

// Polls (with calls the transcript does not show) until `done` holds for the job's status line.
async function untilStatus(session, job, done) {
  for (let tries = 0; tries < 600; tries += 1) {
    const { text } = await session.quietly('jobs', {});
    const status = text.split('\n').filter((line) => line.startsWith(`job ${job} `));
    if (done(status.join('\n'))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${job} never reached the state the transcript shows`);
}

// "A session, as the model sees it", the long output read back with sed, and the progress
// notifications received during its idle-stopped call.
async function firstSession(env) {
  const s = await startTranscript(DEMO, env);
  await s.call('run', { command: 'cd src && ls | wc -l' });
  await s.call('run', { command: 'echo one; echo two' });
  await s.call('run', { command: 'cat missing.txt | wc -l; echo "exit=$?"' });
  await s.call('run', { command: 'cd .. && for f in src/*.ts; do wc -c "$f"; done' });
  await s.call('run', { command: './ask' });
  await s.call('run', { command: './ask', stdin: 'y\n' });
  const progress = [];
  const onprogress = (p) => progress.push(`[progress ${p.progress}] ${JSON.stringify(p.message)}`);
  await s.call('run', { command: 'echo building; sleep 30; echo built', idleTimeout: 2 }, onprogress);
  const session = s.text();

  const long = await startLong(s);
  await s.close();
  return { session, long, progress: progress.join('\n') };
}

async function startLong(s) {
  const from = s.calls();
  const cut = await s.call('run', { command: "seq 1 200000 | paste -d' ' - - - - - - - - - -", budget: 400 });
  const file = cut.structured.output?.file;
  if (!file) throw new Error('the long output was not cut: no file to read back');
  await s.call('run', { command: `sed -n '7,8p' ${file}` });
  return s.text(from);
}

// "A dev server, started, probed and killed".
async function devServer(env) {
  const s = await startTranscript(DEMO, env);
  await s.call('run', { command: 'python3 -u -m http.server 0 --bind 127.0.0.1', background: true });
  const serving = await s.call('job_output', { job: 1, wait: 3 });
  const port = /port (\d+)/.exec(serving.text)?.[1];
  if (!port) throw new Error(`the server said no port within 3 s:\n${serving.text}`);
  await s.call('run', { command: `curl -s http://127.0.0.1:${port}/hello.txt` });
  // The server logs the request just after it answered.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await s.call('job_output', { job: 1 });
  await s.call('job_kill', { job: 1 });
  await s.call('jobs', {});
  await s.call('run', { command: `curl -sS http://127.0.0.1:${port}/hello.txt` });
  await s.close();
  return s.text();
}

// A job answered through job_input, then a call given `yield`.
async function askAgain(env) {
  const s = await startTranscript(DEMO, env);
  await s.call('run', { command: './ask-again', background: true });
  await untilStatus(s, 1, (status) => status.includes('waiting for an answer'));
  await s.call('job_output', { job: 1 });
  await s.call('job_input', { job: 1, text: 'y\n' });
  await s.call('job_input', { job: 1, text: 'n\n', eof: true });
  await s.call('job_output', { job: 1, wait: 10 });
  await s.call('run', { command: 'echo compiling; sleep 3; echo done', yield: 1 });
  await s.call('job_output', { job: 2, wait: 30 });
  await s.close();
  return s.text();
}

function consoleBlocks(env) {
  const mask = consoleLine(`safe-run mcp --mask 'not a name'; echo "exit $?"`, DEMO, env);
  fs.rmSync(path.join(DEMO, 'session.json'), { force: true });
  const harness = [
    "safe-run --agent --json compact --session session.json -c 'cd src && export NODE_ENV=test'",
    `safe-run --agent --json compact --session session.json -c 'for f in *.ts; do echo "$NODE_ENV $f"; done'`,
    'cat session.json',
  ].map((line) => consoleLine(line, DEMO, env));
  return { mask, harness: harness.join('\n') };
}

async function main() {
  setUpDemo();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agents-transcript-'));
  const env = { ...process.env, SAFE_RUN_FACTS: path.join(scratch, 'facts.jsonl') };
  const load = os.loadavg()[0].toFixed(0);
  const first = await firstSession(env);
  const blocks = [
    { first: '[progress ', prefix: true, body: first.progress },
    { first: '>>> run {"command":"cd src && ls | wc -l"}', body: first.session },
    { first: '>>> run {"command":"seq 1 200000', prefix: true, body: first.long },
    { first: '>>> run {"command":"python3 -u -m http.server', prefix: true, body: await devServer(env) },
    { first: '>>> run {"command":"./ask-again","background":true}', body: await askAgain(env) },
  ];
  const cli = consoleBlocks(env);
  blocks.push({ first: '$ safe-run mcp --mask', prefix: true, body: cli.mask });
  blocks.push({ first: '$ safe-run --agent --json compact --session', prefix: true, body: cli.harness });
  fs.rmSync(scratch, { recursive: true, force: true });
  if (argv.includes('--write')) writeDoc(path.join(ROOT, 'docs/agents.md'), blocks);
  else for (const block of blocks) process.stdout.write(`\`\`\`text\n${block.body}\n\`\`\`\n\n`);
  process.stderr.write(`load average (1 min) at the start: ${load}\n`);
}

await main();
