import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { resolveProgram } from '../engine/resolve/resolve-program.js';
import { RequestError } from '../errors.js';
import { formatDuration } from '../format-units.js';
import { parseInline } from '../inputs/inline-grammar.js';
import { OwnGroups } from '../teardown/own-groups.js';
import { openProcWindow } from '../teardown/proc-window.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Verdict } from './expectations.js';

// --expect-cmd 'PROGRAM ARGS': a checker program judges the staged output by its exit status (0
// passes). It gets the staged file's path in place of an argument `{}`, or else as its last
// argument, and the file on its stdin too; it runs in its own process group, with a time limit.
export interface CheckCommand {
  text: string;
  argv: string[];
  env: Record<string, string>;
  // The file to execute, and the interpreter for a script without #!, found before anything starts.
  file: string;
  interpreter: string | null;
}

export function parseCheckCommand(text: string, env: NodeJS.ProcessEnv, where: string): CheckCommand {
  if (text.trim() === '')
    throw new RequestError(
      'usage.expect-cmd',
      `${where} ${JSON.stringify(text)}: empty; name a checker program`,
    );
  const stages = parseInline(text);
  if (stages.length !== 1) {
    throw new RequestError(
      'usage.expect-cmd',
      `${where} ${JSON.stringify(text)}: one command, not a pipeline; wrap a pipeline in a script`,
    );
  }
  const { argv, env: own } = stages[0]!;
  const resolved = resolveProgram(argv[0]!, { ...env, ...own }, process.cwd());
  if (!resolved.ok) {
    throw new RequestError('usage.expect-cmd', `${where} ${JSON.stringify(text)}: ${resolved.message}`);
  }
  return { text, argv, env: own, file: resolved.path, interpreter: resolved.interpreter };
}

interface CheckRun {
  timeoutMs: number;
  killAfterMs: number;
  // Resolves with a reason when safe-run is told to stop (a signal).
  stop: Promise<string>;
  guard: Watchdog | null;
}

const KEPT_OUTPUT = 4096;
const DRAIN_MS = 1000;

function drained(streams: (NodeJS.ReadableStream | null)[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = streams.map(
    (stream) =>
      new Promise<void>((resolve) => {
        if (!stream || (stream as { closed?: boolean }).closed) resolve();
        else stream.once('close', () => resolve());
      }),
  );
  return Promise.race([
    Promise.all(closed).then(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// The checker in its own process group, the staged file as its stdin and as `{}` (or last argument).
function spawnChecker(command: CheckCommand, staged: string): ChildProcess {
  const args = command.argv.includes('{}')
    ? command.argv.slice(1).map((arg) => (arg === '{}' ? staged : arg))
    : [...command.argv.slice(1), staged];
  const fileArgs = command.interpreter ? [command.file, ...args] : args;
  const input = fs.openSync(staged, 'r');
  const child = spawn(command.interpreter ?? command.file, fileArgs, {
    argv0: command.interpreter ? path.basename(command.interpreter) : command.argv[0],
    env: { ...process.env, ...command.env },
    stdio: [input, 'pipe', 'pipe'],
    detached: true,
  });
  fs.closeSync(input);
  return child;
}

// The last KEPT_OUTPUT bytes the checker wrote on either stream, for its last line.
function keepTail(streams: (NodeJS.ReadableStream | null)[]): { tail(): Buffer } {
  let output = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    output = Buffer.concat([output, chunk]);
    if (output.length > KEPT_OUTPUT) output = output.subarray(output.length - KEPT_OUTPUT);
  };
  for (const stream of streams) stream?.on('data', keep);
  return { tail: () => output };
}

export async function runCheckCommand(
  command: CheckCommand,
  staged: string,
  options: CheckRun,
): Promise<Verdict> {
  const child = spawnChecker(command, staged);
  const pid = child.pid;
  // Its group is signalled only while provably the checker's (its id may be reused once empty).
  const window = openProcWindow();
  const groups = new OwnGroups(null, window);
  if (pid !== undefined) options.guard?.watchGroup(pid, groups.add(pid));
  const output = keepTail([child.stdout, child.stderr]);
  let stopped: string | null = null;
  const signal = (sig: NodeJS.Signals) => {
    if (pid !== undefined) groups.signal(pid, sig);
  };
  const stopNow = (why: string) => {
    if (stopped) return;
    stopped = why;
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), options.killAfterMs).unref();
  };
  const timer = setTimeout(
    () => stopNow(`stopped by its time limit (${formatDuration(options.timeoutMs)})`),
    options.timeoutMs,
  );
  void options.stop.then((why) => stopNow(`stopped: ${why}`));
  const ended = await new Promise<{ code: number | null; signal: string | null; error?: string }>(
    (resolve) => {
      child.on('error', (error) => resolve({ code: null, signal: null, error: error.message }));
      child.on('exit', (code, sig) => resolve({ code, signal: sig }));
    },
  );
  clearTimeout(timer);
  groups.close();
  // Whatever the checker left in its group is ours to end; then its last words are read, for a
  // moment at most: a holder outside its group must not keep safe-run waiting.
  signal('SIGKILL');
  if (pid !== undefined) options.guard?.unwatchGroup(pid);
  await drained([child.stdout, child.stderr], DRAIN_MS);
  child.stdout?.destroy();
  child.stderr?.destroy();
  window?.close();
  return verdictOf(ended, stopped, output.tail());
}

function verdictOf(
  ended: { code: number | null; signal: string | null; error?: string },
  stopped: string | null,
  output: Buffer,
): Verdict {
  if (ended.error) return { passed: false, detail: `the checker could not start: ${ended.error}` };
  if (stopped) return { passed: false, detail: `the checker was ${stopped}` };
  const last = output
    .toString('utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .pop();
  const said = last ? `; its last line: ${JSON.stringify(last.slice(0, 200))}` : '';
  if (ended.code === 0) return { passed: true, detail: `the checker exited 0${said}` };
  const how = ended.signal ? `was killed by ${ended.signal}` : `exited ${ended.code}`;
  return { passed: false, detail: `the checker ${how}${said}` };
}
