import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Report } from '../../src/types.js';
import { BIN } from './cli.js';

// One generated step: its text, and a here-document body (ending with its delimiter line) that must
// follow the line the step is on.
export interface GenStep {
  text: string;
  body?: string;
}
export interface GenLine {
  steps: GenStep[];
  // Between steps k and k+1; a step with a body is always followed by a newline.
  connectors: ('&&' | '||' | ';' | '\n')[];
}

// The text as a person would type it.
export function renderLine(line: GenLine): string {
  return line.steps
    .map((step, k) => {
      const after = k < line.connectors.length ? line.connectors[k]! : '';
      if (step.body !== undefined) return `${step.text}\n${step.body}`;
      return `${step.text}${after === '\n' ? '\n' : after === ';' ? '; ' : after ? ` ${after} ` : ''}`;
    })
    .join('');
}

// The same text for bash, with each step wrapped in a group that reports its PIPESTATUS on fd 3 and
// then gives back the step's own status, so the list's short circuit is unchanged.
export function instrumentLine(line: GenLine): string {
  const wrapped: GenLine = {
    connectors: line.connectors,
    steps: line.steps.map((step, k) => ({
      ...step,
      text: `{ ${step.text}; __rc=$? __p="\${PIPESTATUS[*]}"; echo "${k + 1} $__p" >&3; __ret $__rc; }`,
    })),
  };
  return `__ret() { return $1; }; ${renderLine(wrapped)}`;
}

export interface Outcome {
  exit: number;
  stdout: string;
  // Per step that ran: its stages' codes.
  steps: Record<number, number[]>;
  files: Record<string, string>;
}

// Every file and directory under dir, with contents.
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isSymbolicLink()) out[child] = `-> ${fs.readlinkSync(path.join(dir, child))}`;
      else if (entry.isDirectory()) {
        out[`${child}/`] = '';
        walk(child);
      } else out[child] = fs.readFileSync(path.join(dir, child), 'utf8');
    }
  };
  walk('.');
  return out;
}

function collect(child: ReturnType<typeof spawn>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? 128 + os.constants.signals[signal!],
        stdout: Buffer.concat(out).toString('utf8'),
      }),
    );
  });
}

export async function runBash(
  line: GenLine,
  cwd: string,
  env: Record<string, string>,
  tree = cwd,
): Promise<Outcome> {
  const statusFile = path.join(os.tmpdir(), `oracle-${process.pid}-${Date.now()}`);
  const fd = fs.openSync(statusFile, 'w');
  const child = spawn('bash', ['-o', 'pipefail', '-c', instrumentLine(line)], {
    cwd,
    // As safe-run gets it (its output uncoloured): the interpreter passes it on to the stages.
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore', fd],
  });
  const { code, stdout } = await collect(child);
  fs.closeSync(fd);
  const steps: Record<number, number[]> = {};
  for (const row of fs.readFileSync(statusFile, 'utf8').split('\n').filter(Boolean)) {
    const [k, ...codes] = row.split(' ');
    steps[Number(k)] = codes.map(Number);
  }
  fs.rmSync(statusFile, { force: true });
  return { exit: code, stdout, steps, files: snapshot(tree) };
}

export function stageCode(stage: Report['stages'][number]): number {
  if (stage.signal !== null) return 128 + os.constants.signals[stage.signal as NodeJS.Signals];
  return stage.exitCode ?? stage.error?.exitCode ?? -1;
}

export async function runSafeRun(
  text: string,
  cwd: string,
  env: Record<string, string>,
  extra: string[] = [],
  tree = cwd,
): Promise<Outcome & { report: Report; stderr: string }> {
  const reportFile = path.join(os.tmpdir(), `oracle-report-${process.pid}-${Date.now()}.json`);
  const child = spawn(
    process.execPath,
    [BIN, '--no-facts', '--sigpipe', 'fail', '--report', reportFile, ...extra, '-c', text],
    {
      cwd,
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const err: Buffer[] = [];
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  const { code, stdout } = await collect(child);
  const stderr = Buffer.concat(err).toString('utf8');
  if (!fs.existsSync(reportFile)) throw new Error(`no report (exit ${code}): ${stderr}`);
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
  fs.rmSync(reportFile, { force: true });
  const steps: Record<number, number[]> = {};
  for (const step of report.steps ?? []) {
    if (step.ran) steps[step.index] = step.stages.map((i) => stageCode(report.stages[i - 1]!));
  }
  return { exit: code, stdout, steps, files: snapshot(tree), report, stderr };
}

export function bashVersionOk(): Promise<boolean> {
  return new Promise((resolve) => execFile('bash', ['--version'], (error) => resolve(!error)));
}
