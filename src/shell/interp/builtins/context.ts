import type { OpenStop } from '../../../engine/fifo-open.js';
import type { StreamTarget } from '../../../types.js';
import type { Assign } from '../../syntax/nodes.js';
import type { Bytes } from '../../syntax/source.js';
import type { RunnerApi } from '../api.js';
import type { FdRef } from '../fds.js';
import { writeTo } from '../output.js';
import { type Input, inputOf, readRecord } from '../read-bytes.js';
import { ExitSignal } from '../signals.js';
import { noteWaitStop } from '../stops.js';
import { waitStop } from '../wait-stop.js';

// Thrown by a builtin asked for what safe-run's interpreter does not do as bash would: the command is
// refused when it is reached (run-builtin.ts), never answered otherwise.
export class BuiltinRefused extends Error {}

// bash's words for a failed write, by what writeTo met.
const WRITE_ERRORS = {
  closed: 'Bad file descriptor',
  full: 'No space left on device',
  error: 'Input/output error',
} as const;

// What a builtin runs with: the shell (through the runner), its name and arguments, and its output,
// which is kept for the report as it is written when it reaches the run's own stdout or stderr (as
// a program's: what went into a pipe, a file or a substitution is not what the run printed).
export class BuiltinContext {
  written = { out: '', err: '' };
  // Where its stdout and stderr went instead of the run's own (a pipe, a file), by the last write.
  elsewhere: { out: StreamTarget | null; err: StreamTarget | null } = { out: null, err: null };
  private writeError: string | null = null;
  // Set when the time limit or a signal ended its wait for input (readInput).
  halted: OpenStop | null = null;

  constructor(
    readonly r: RunnerApi,
    readonly name: string,
    // The arguments after the name.
    readonly args: Bytes[],
    // For a declaration builtin: per argument, the assignment it was written as, or null.
    readonly decl: (Assign | null)[] | null,
  ) {}

  get sh() {
    return this.r.sh;
  }

  async out(text: Bytes): Promise<void> {
    if (this.writeError) return;
    const ref = this.sh.fds.get(1);
    const result = await writeTo(this.r.rt, ref, text);
    if (result !== 'ok') this.writeError = WRITE_ERRORS[result];
    else if (ref.kind === 'run' && ref.fd === 1) this.written.out += text;
    // `echo msg >&2`: what reached the run's stderr is the stage's stderr, as a program's would be.
    else if (ref.kind === 'run' && ref.fd === 2) this.written.err += text;
    else this.elsewhere.out = destination(ref);
  }

  async err(text: Bytes): Promise<void> {
    const ref = this.sh.fds.get(2);
    if (ref.kind === 'run') this.written.err += text;
    else this.elsewhere.err = destination(ref);
    await writeTo(this.r.rt, ref, text);
  }

  // "bash: line N: NAME: message" on stderr (without NAME when `named` is false); returns `status`.
  async fail(message: string, status = 1, named = true): Promise<number> {
    await this.err(
      `${this.sh.messageName()}: line ${this.sh.lineno}: ${named ? `${this.name}: ` : ''}${message}\n`,
    );
    return status;
  }

  // bash's usage line, "NAME: usage: SYNOPSIS" with no prefix, after `problem` said the usual way; 2.
  async usage(synopsis: string, problem?: string): Promise<number> {
    if (problem !== undefined) await this.fail(problem);
    await this.err(`${this.name}: usage: ${synopsis}\n`);
    return 2;
  }

  // Where the builtin reads descriptor `fd`. (Not a pipe that has no data yet: see FdRef's pending.)
  input(fd: number): Input {
    const ref = this.sh.fds.get(fd);
    if (ref.kind === 'run' && ref.pending)
      this.refuse(
        "reads the pipe from the command before it in its pipeline, which has no data yet while safe-run expands this command's words",
      );
    return inputOf(this.r.rt, ref);
  }

  // A record of descriptor `fd` (read-bytes.ts readRecord); a wait for input that the time limit or a
  // signal ended ends the text here, the builtin's stage stopped. A descriptor open for writing only
  // reads as empty, `unreadable` said (bash: EBADF).
  async readInput(fd: number, stop: (byte: number, taken: Buffer[]) => boolean) {
    let record: Awaited<ReturnType<typeof readRecord>>;
    try {
      record = await readRecord(fd, stop, waitStop(this.r));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBADF') throw error;
      return { bytes: Buffer.alloc(0), eof: true, unreadable: true };
    }
    if (!record.halted) return record;
    this.halted = record.halted;
    noteWaitStop(this.r.rt, record.halted);
    throw new ExitSignal(1, 'stopped');
  }

  // The command is refused when reached: `why` says what bash would do that safe-run does not.
  refuse(why: string): never {
    throw new BuiltinRefused(why);
  }

  // bash's "write error" when stdout could not be written (a closed descriptor).
  async finish(status: number): Promise<number> {
    if (!this.writeError) return status;
    await this.err(
      `${this.sh.messageName()}: line ${this.sh.lineno}: ${this.name}: write error: ${this.writeError}\n`,
    );
    return 1;
  }
}

export type Builtin = (ctx: BuiltinContext) => Promise<number>;

// How the report names where a builtin's stream went: the next stage's pipe, or a file.
function destination(ref: FdRef): StreamTarget {
  if (ref.kind === 'file') return ref.file.what;
  if (ref.kind === 'run') return { kind: ref.fd === 2 ? 'stderr' : 'stdout' };
  return { kind: ref.kind === 'capture' ? 'substitution' : 'closed' };
}
