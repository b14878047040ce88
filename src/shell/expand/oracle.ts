import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { bashPath } from '../bash-path.js';
import type { Bytes } from '../syntax/source.js';
import { ORACLE_SCRIPT } from './oracle-script.js';

// What bash's own library computes better than a copy of it could: globbing (sorted as the locale
// sorts), pattern matching (case, [[ == ]], ${x#pat}, ${x/pat/rep}), =~ (the C library's regex),
// locale collation and case, ~user, and ${x@Q}. One `bash --norc --noprofile` per run answers these
// requests over a pipe. It never runs anything of the user's: every request is data read with
// `read -d ''`, except patterns, which are built by pattern.ts from nothing but quoted text and glob
// characters and checked again before they are sent (inertPattern).
export class Oracle {
  private child: ChildProcessByStdio<Writable, Readable, null> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: ((fields: Bytes[]) => void) | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly fields: Bytes[] = [];
  private expected = -1;

  constructor(private readonly environment: Record<string, string>) {}

  // Sends one request (an operation and its arguments) and resolves with the answer's fields.
  ask(op: string, args: readonly Bytes[]): Promise<Bytes[]> {
    const run = () => this.send(op, args);
    const answer = this.queue.then(run, run);
    this.queue = answer.catch(() => {});
    return answer;
  }

  // Ends the helper; resolves once its pipes are closed (a run leaves no descriptor behind).
  close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child) return Promise.resolve();
    const closed = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      child.once('close', () => resolve());
    });
    // Held while it closes: an unreferenced child would let the process exit before its pipes close.
    child.ref();
    (child.stdout as unknown as { ref?: () => void }).ref?.();
    child.stdin.end();
    child.kill('SIGKILL');
    return closed;
  }

  private start(): ChildProcessByStdio<Writable, Readable, null> {
    const child = spawn(bashPath(), ['--norc', '--noprofile', '-c', ORACLE_SCRIPT, 'safe-run-oracle'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...this.environment, LC_ALL: 'C' },
      cwd: '/',
    });
    child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    child.on('error', () => this.fail());
    child.on('exit', () => this.fail());
    child.stdin.on('error', () => {});
    child.unref();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    return child;
  }

  private send(op: string, args: readonly Bytes[]): Promise<Bytes[]> {
    this.child ??= this.start();
    const fields = [String(args.length + 1), op, ...args];
    const data = Buffer.from(`${fields.join('\0')}\0`, 'latin1');
    // The answer keeps Node alive only while it is awaited.
    this.handles(true);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.child!.stdin.write(data);
    });
  }

  // Answers are NUL-separated fields, the first one their count.
  private take(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let nul = this.buffer.indexOf(0); nul >= 0; nul = this.buffer.indexOf(0)) {
      const field = this.buffer.subarray(0, nul).toString('latin1');
      this.buffer = this.buffer.subarray(nul + 1);
      if (this.expected < 0) this.expected = Number(field);
      else this.fields.push(field);
      if (this.expected >= 0 && this.fields.length === this.expected) this.settle(this.fields.splice(0));
    }
  }

  private handles(ref: boolean): void {
    const stdout = this.child?.stdout as unknown as { ref?: () => void; unref?: () => void } | undefined;
    if (ref) stdout?.ref?.();
    else stdout?.unref?.();
  }

  private settle(fields: Bytes[]): void {
    this.handles(false);
    this.expected = -1;
    const resolve = this.pending;
    this.pending = null;
    resolve?.(fields);
  }

  private fail(): void {
    this.child = null;
    this.buffer = Buffer.alloc(0);
    this.fields.length = 0;
    this.settle([]);
  }
}

// Only quoted text ('...') and these characters may reach the oracle's `eval` in a pattern: no
// expansion, substitution, redirection or command can be written with them.
export function inertPattern(pattern: string): boolean {
  let i = 0;
  // Open extended patterns: ( only after their operator, | and ) only inside one, all closed.
  let depth = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "'") {
      const close = pattern.indexOf("'", i + 1);
      if (close < 0) return false;
      i = close + 1;
    } else if (c === '\\' && pattern[i + 1] === "'") i += 2;
    else if ('?*+@!'.includes(c) && pattern[i + 1] === '(') {
      depth++;
      i += 2;
    } else if ((c === '|' || c === ')') && depth > 0) {
      if (c === ')') depth--;
      i++;
    } else if (/[A-Za-z0-9*?[\]!^:=.-]/.test(c)) i++;
    else return false;
  }
  return depth === 0;
}
