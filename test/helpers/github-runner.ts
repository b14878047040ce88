import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli.js';

// What the GitHub Actions runner does around a `run:` step, reproduced for tests: the variables it
// sets, the files it hands over (GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), the
// script file it writes and the shell line it runs it with, and how it reads the step's output
// (workflow commands, add-mask, stop-commands). Written from the runner's documented behaviour.

export interface RunnerJob {
  root: string;
  workspace: string;
  env: Record<string, string>;
  files: { summary: string; env: string; path: string; output: string };
  steps: number;
}

export function newRunnerJob(root: string, extraPath: string[] = []): RunnerJob {
  const workspace = path.join(root, 'workspace');
  const temp = path.join(root, 'runner-temp');
  const fileDir = path.join(temp, '_runner_file_commands');
  for (const dir of [workspace, fileDir, path.join(root, 'tool-cache')])
    fs.mkdirSync(dir, { recursive: true });
  const files = {
    summary: path.join(fileDir, 'step_summary'),
    env: path.join(fileDir, 'set_env'),
    path: path.join(fileDir, 'add_path'),
    output: path.join(fileDir, 'set_output'),
  };
  const env: Record<string, string> = {
    PATH: [...extraPath, process.env.PATH ?? '/usr/bin:/bin'].join(path.delimiter),
    HOME: process.env.HOME ?? root,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'example/project',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'test',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: temp,
    RUNNER_TOOL_CACHE: path.join(root, 'tool-cache'),
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
  };
  return { root, workspace, env, files, steps: 0 };
}

export interface StepResult {
  code: number | null;
  // stdout and stderr as the runner receives them: one stream of lines.
  log: string;
  view: RunnerView;
}

// Runs one `run:` step as the runner does: the script goes into a file, `{0}` in the shell line is
// its path, the step's files are fresh, and afterwards GITHUB_ENV and GITHUB_PATH change the job's
// environment for the next steps.
export async function runStep(
  job: RunnerJob,
  script: string,
  options: { shell?: string; env?: Record<string, string>; action?: string } = {},
): Promise<StepResult> {
  job.steps += 1;
  const file = path.join(job.env.RUNNER_TEMP!, `step-${job.steps}.sh`);
  fs.writeFileSync(file, script);
  for (const name of ['env', 'path', 'output'] as const) fs.writeFileSync(job.files[name], '');
  const shell = (options.shell ?? 'bash --noprofile --norc -eo pipefail {0}')
    .split(' ')
    .map((w) => w.replace('{0}', file));
  const env = {
    ...job.env,
    GITHUB_ACTION: options.action ?? (job.steps === 1 ? '__run' : `__run_${job.steps}`),
    GITHUB_STEP_SUMMARY: job.files.summary,
    GITHUB_ENV: job.files.env,
    GITHUB_PATH: job.files.path,
    GITHUB_OUTPUT: job.files.output,
    ...options.env,
  };
  const { code, log } = await runMerged(shell, env, job.workspace);
  applyFileCommands(job);
  return { code, log, view: readAsRunner(log) };
}

function runMerged(argv: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; log: string }>((resolve, reject) => {
    // One pipe for both streams, as the runner's log has them.
    const child = spawn('sh', ['-c', 'exec "$@" 2>&1', 'sh', ...argv], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    // A bound for a step that hangs, well above what the slowest step does here (npm install -g of the
    // packed checkout: ~5 s quietly, more beside the whole suite), and below the tests' own 300 s.
    const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, log: Buffer.concat(out).toString('utf8') });
    });
  });
}

// GITHUB_ENV: NAME=value lines or NAME<<DELIMITER blocks; GITHUB_PATH: one directory a line,
// put in front of PATH (the last line first).
function applyFileCommands(job: RunnerJob): void {
  const lines = fs.readFileSync(job.files.env, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      job.env[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('='))
      job.env[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  const added = fs.readFileSync(job.files.path, 'utf8').split('\n').filter(Boolean);
  if (added.length > 0) job.env.PATH = [...added.reverse(), job.env.PATH].join(path.delimiter);
}

export interface Annotation {
  level: string;
  props: Record<string, string>;
  message: string;
}

export interface RunnerView {
  // The lines the log page shows, masked, without the commands it consumed.
  shown: string[];
  annotations: Annotation[];
  masks: string[];
  groups: string[];
}

const ANNOTATIONS = new Set(['error', 'warning', 'notice', 'debug']);
const COMMANDS = new Set([
  ...ANNOTATIONS,
  'group',
  'endgroup',
  'add-mask',
  'stop-commands',
  'set-output',
  'save-state',
  'echo',
  'add-matcher',
  'remove-matcher',
]);

interface Parsed {
  name: string;
  props: Record<string, string>;
  data: string;
}

const decodePairs = (text: string, pairs: [string, string][]) =>
  pairs.reduce((out, [code, ch]) => out.replaceAll(code, ch), text);

function parseLine(line: string, known: Set<string>): Parsed | null {
  return parseV2(line, known) ?? parseV1(line, known);
}

function parseV2(line: string, known: Set<string>): Parsed | null {
  const trimmed = line.trimStart();
  const end = trimmed.startsWith('::') ? trimmed.indexOf('::', 2) : -1;
  if (end === -1) return null;
  const info = trimmed.slice(2, end);
  const space = info.indexOf(' ');
  const name = space === -1 ? info : info.slice(0, space);
  if (!known.has(name.toLowerCase())) return null;
  const props: Record<string, string> = {};
  for (const pair of space === -1 ? [] : info.slice(space + 1).split(',')) {
    const eq = pair.indexOf('=');
    if (eq > 0)
      props[pair.slice(0, eq).trim()] = decodePairs(pair.slice(eq + 1), [
        ['%0D', '\r'],
        ['%0A', '\n'],
        ['%3A', ':'],
        ['%2C', ','],
        ['%25', '%'],
      ]);
  }
  return {
    name: name.toLowerCase(),
    props,
    data: decodePairs(trimmed.slice(end + 2), [
      ['%0D', '\r'],
      ['%0A', '\n'],
      ['%25', '%'],
    ]),
  };
}

function parseV1(line: string, known: Set<string>): Parsed | null {
  const at = line.indexOf('##[');
  const close = at === -1 ? -1 : line.indexOf(']', at);
  if (close === -1) return null;
  const name = line.slice(at + 3, close).split(' ')[0]!;
  if (!known.has(name.toLowerCase())) return null;
  return { name: name.toLowerCase(), props: {}, data: line.slice(close + 1) };
}

// Reads a step's output line by line as the runner does.
export function readAsRunner(log: string): RunnerView {
  const view: RunnerView = { shown: [], annotations: [], masks: [], groups: [] };
  const known = new Set(COMMANDS);
  let stopToken: string | null = null;
  const mask = (text: string) => view.masks.reduce((out, value) => out.replaceAll(value, '***'), text);
  for (const line of log.replace(/\n$/, '').split('\n')) {
    const command = parseLine(line, known);
    if (stopToken !== null) {
      if (command?.name === stopToken) {
        known.delete(stopToken);
        stopToken = null;
      } else view.shown.push(mask(line));
      continue;
    }
    if (command === null) view.shown.push(mask(line));
    else if (command.name === 'add-mask') view.masks.push(command.data);
    else if (command.name === 'stop-commands') {
      stopToken = command.data.toLowerCase();
      known.add(stopToken);
    } else if (command.name === 'group') view.groups.push(mask(command.data));
    else if (ANNOTATIONS.has(command.name)) {
      view.annotations.push({ level: command.name, props: command.props, message: mask(command.data) });
    }
  }
  return view;
}

export const SAFE_RUN_BIN_DIR = path.join(ROOT, 'bin');
