import fs from 'node:fs';
import type { StreamTarget } from '../../types.js';
import type { Bytes } from '../syntax/source.js';

// A descriptor safe-run opened for the text (a redirection's file, a pipe end), shared by every
// descriptor table that names it (a subshell's copy, 2>&1) and closed when the last one lets go.
export class OpenFile {
  private refs = 1;
  // A second, non-blocking opening of a pipe's write end (nonBlocking()); null when none can be had.
  private twin: number | null | undefined;

  constructor(
    readonly fd: number,
    // What it is: a file (its path), a here-document or a pipe.
    readonly what: StreamTarget,
  ) {}

  retain(): OpenFile {
    this.refs++;
    return this;
  }

  release(): void {
    this.refs--;
    if (this.refs === 0) {
      for (const fd of [this.fd, this.twin ?? null]) {
        try {
          if (fd !== null) fs.closeSync(fd);
        } catch {
          // closed already
        }
      }
    }
  }

  // The pipe's write end opened again (through /proc/self/fd) without blocking, so that a builtin's
  // write goes in at once when the pipe has room, as a forked bash child's does, not after a round trip
  // through libuv's thread pool: `echo hi | true` ended 141 there, the reader gone before the write.
  // Null for a read end, a file, a pipe with no reader left, or without /proc. Closed with the file
  // (an extra writer left open would keep the reader from its end of file).
  nonBlocking(): number | null {
    if (this.twin === undefined) this.twin = this.what.kind === 'pipe' ? openTwin(this.fd) : null;
    return this.twin;
  }
}

function openTwin(fd: number): number | null {
  try {
    // Only a descriptor open for writing (flags in octal; O_WRONLY 1, O_RDWR 2).
    const flags = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'))?.[1];
    if (flags === undefined || (Number.parseInt(flags, 8) & 3) === 0) return null;
    return fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
}

// Where one of the text's descriptors leads: the run's own stdin, stdout or stderr (streamed and
// captured by the engine), a descriptor safe-run holds, the output of a command substitution being
// collected, or nothing (closed).
// (`pending`: the stdin of a pipeline's later element while its words are expanded, which is the pipe
// from the element before it under bash; that pipe has no data yet then. A builtin does not read it.)
export type FdRef =
  | { kind: 'run'; fd: 0 | 1 | 2; pending?: true }
  | { kind: 'file'; file: OpenFile }
  | { kind: 'capture'; sink: CaptureSink }
  | { kind: 'closed' };

// The output of $( ... ) as it is collected.
export class CaptureSink {
  private readonly chunks: Buffer[] = [];

  append(bytes: Buffer): void {
    this.chunks.push(bytes);
  }

  text(): Bytes {
    return Buffer.concat(this.chunks).toString('latin1');
  }
}

const MAX_FD = 9;

// The descriptors 0-9 of a shell (or of one command while its redirections apply).
export class FdTable {
  private readonly slots: FdRef[];

  constructor(slots?: FdRef[]) {
    this.slots = slots ?? [
      { kind: 'run', fd: 0 },
      { kind: 'run', fd: 1 },
      { kind: 'run', fd: 2 },
      ...Array.from({ length: MAX_FD - 2 }, (): FdRef => ({ kind: 'closed' })),
    ];
  }

  get(fd: number): FdRef {
    return this.slots[fd] ?? { kind: 'closed' };
  }

  // What ends the process substitutions (`<(cmd)`) expanded while this table was the shell's: bash
  // lets go of them once the command that expanded them is done (closeSubstitutions).
  readonly substitutions: (() => void)[] = [];

  // Points `fd` at `ref` (retaining a held descriptor), letting go of what it pointed at.
  set(fd: number, ref: FdRef): void {
    while (this.slots.length < fd) this.slots.push({ kind: 'closed' });
    if (ref.kind === 'file') ref.file.retain();
    const old = this.slots[fd];
    this.slots[fd] = ref;
    if (old?.kind === 'file') old.file.release();
  }

  // A copy whose changes do not reach this table (a subshell, a command's own redirections).
  copy(): FdTable {
    const slots = this.slots.map((ref) => {
      if (ref.kind === 'file') ref.file.retain();
      return ref;
    });
    return new FdTable(slots);
  }

  // Lets go of every held descriptor (the copy is done with), and of its process substitutions.
  release(): void {
    this.closeSubstitutions(0);
    for (let fd = 0; fd < this.slots.length; fd++) {
      const ref = this.slots[fd]!;
      if (ref.kind === 'file') ref.file.release();
      this.slots[fd] = { kind: 'closed' };
    }
  }

  // Ends the process substitutions expanded since `mark` (a length of `substitutions` taken before).
  closeSubstitutions(mark: number): void {
    for (const end of this.substitutions.splice(mark)) end();
  }

  // The lowest free descriptor from 10 on, for {name}> (bash starts there).
  freeAbove(): number {
    return Math.max(this.slots.length, MAX_FD + 1);
  }

  entries(): [number, FdRef][] {
    return this.slots.map((ref, fd) => [fd, ref]);
  }
}
