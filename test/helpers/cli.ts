import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../src/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin', 'safe-run');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');

// How long one safe-run may take before runCli kills it: a hang guard, never a speed check. A test
// that runs the CLI n times in sequence gets n times this as its own limit.
export const CLI_DEADLINE_MS = 30_000;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  pid: number;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string | Buffer;
  // Kill safe-run if it has not finished by then: a hang fails the test instead of the suite.
  deadlineMs?: number;
  onStart?: (pid: number) => void;
}

// Runs the real CLI as a child process and collects everything it printed.
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', SAFE_RUN_FACTS: undefined, ...options.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs ?? CLI_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        pid: child.pid ?? -1,
      });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
    options.onStart?.(child.pid ?? -1);
  });
}

// Runs with --json and parses the report.
export async function runJson(
  args: string[],
  options: CliOptions = {},
): Promise<{ result: CliResult; report: Report }> {
  const result = await runCli(['--json', '--no-facts', ...args], options);
  let report: Report;
  try {
    report = JSON.parse(result.stdout) as Report;
  } catch {
    throw new Error(
      `no JSON report (exit ${result.code}); stderr: ${result.stderr}; stdout: ${result.stdout.slice(0, 500)}`,
    );
  }
  return { result, report };
}

export function statuses(report: Report): string[] {
  return report.stages.map((stage) => stage.status);
}
