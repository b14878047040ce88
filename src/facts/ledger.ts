import { type BigIntStats, closeSync, fstatSync, openSync, readSync, truncateSync } from 'node:fs';
import { hostname } from 'node:os';
import { appendLine, describeError } from './append-line.js';
import { type Fact, foldFacts, programKey } from './fold-facts.js';
import {
  decodeLedger,
  encodeEvent,
  mentionsAny,
  type NotStartedEvent,
  type StartedEvent,
} from './ledger-events.js';

// The environment-facts ledger: every safe-run on the machine appends what could not be started,
// and every run reads it to show what is already known about its programs. Writes are single
// appended lines (append-line.ts); nothing here throws: problems come back as warnings.

export { describeFact } from './describe-fact.js';
export type { Fact } from './fold-facts.js';
export { defaultLedgerPath } from './ledger-path.js';

// What a run knows about a stage that could not start; the ledger adds the rest of the event.
type NotStartedEntry = Omit<NotStartedEvent, 'v' | 'event' | 'at' | 'host' | 'pid' | 'truncated'> & {
  // ISO time; now when omitted.
  at?: string;
};

type StartedEntry = Omit<StartedEvent, 'v' | 'event' | 'at' | 'host' | 'pid'> & { at?: string };

interface LedgerRead {
  // Every fact, resolved ones included, in the order they were first seen.
  facts: Fact[];
  // Lines that were not a whole record (torn, garbage, unfinished).
  skipped: number;
  warnings: string[];
}

// Reads at most this much, from the end: a run reads the ledger once, and this bounds the cost.
const MAX_READ_BYTES = 8 * 1024 * 1024;

// Why a program could not start, as preflight found it: the fields a fact keeps (the engine's
// Unresolved has this shape; the ledger does not depend on the engine).
export interface NotStartedCause {
  path: string | null;
  code: string;
  cause: string;
  exitCode: number;
  message: string;
  interpreter: string | null;
}

export function notStartedEntry(
  program: string,
  resolution: NotStartedCause,
  env: Record<string, string | undefined>,
  cwd: string,
): NotStartedEntry {
  const { path: found, code, cause, exitCode, message, interpreter } = resolution;
  return { program, cwd, found, code, cause, exitCode, message, interpreter, pathVar: env.PATH ?? null };
}

export function recordNotStarted(ledgerPath: string, entry: NotStartedEntry): string | null {
  const { at, ...fields } = entry;
  const line = encodeEvent({
    v: 1,
    event: 'not-started',
    at: at ?? new Date().toISOString(),
    ...fields,
    host: hostname(),
    pid: process.pid,
  });
  return appendLine(ledgerPath, line);
}

// Marks the open facts about a program that has now started as resolved. Appends only when there
// is such a fact, so a normal run writes nothing. `known` is what the run already read (from
// openFactsFor); without it the ledger is read again.
export function recordStarted(ledgerPath: string, entry: StartedEntry, known?: Fact[]): string | null {
  const key = programKey(entry.program, entry.cwd);
  const facts = known ?? readLedger(ledgerPath).facts;
  if (!facts.some((fact) => fact.resolvedAt === null && programKey(fact.program, fact.cwd) === key))
    return null;
  const line = encodeEvent({
    v: 1,
    event: 'started',
    at: entry.at ?? new Date().toISOString(),
    program: entry.program,
    cwd: entry.cwd,
    resolvedPath: entry.resolvedPath,
    host: hostname(),
    pid: process.pid,
  });
  return appendLine(ledgerPath, line);
}

// Every run reads the ledger, and so does every step of a text: the last read is kept, with the
// file's identity, size and times, and handed out again while they are unchanged (an fstat instead
// of reading and folding up to 8 MiB: a ledger of 1.1 MB cost a 41-step text 15 ms a step). Kept
// frozen: every caller shares it.
//
// `programs`: only the facts about these are wanted (a run's), so only lines that may be about them
// are parsed: 3,000 facts (1.1 MB) cost every run 45 ms, 4 ms read this way. Damaged lines are still
// counted, by their shape.
let lastRead: { stamp: string; read: LedgerRead } | null = null;

export function readLedger(ledgerPath: string, programs?: readonly string[]): LedgerRead {
  const warnings: string[] = [];
  const file = openLedger(ledgerPath, warnings);
  if (file === null) return fold('', ledgerPath, warnings);
  try {
    const relevant = programs === undefined ? undefined : mentionsAny(programs);
    const stamp = `${stampOf(ledgerPath, file.stat)}\0${relevant ? programs?.join('\0') : '*'}`;
    if (lastRead?.stamp === stamp) return lastRead.read;
    const read = fold(readTail(ledgerPath, file, warnings), ledgerPath, warnings, relevant);
    lastRead = { stamp, read: frozen(read) };
    return read;
  } catch (error) {
    return fold('', ledgerPath, [...warnings, cannotRead(ledgerPath, error)]);
  } finally {
    closeSync(file.fd);
  }
}

function fold(
  text: string,
  ledgerPath: string,
  warnings: string[],
  relevant?: (line: string) => boolean,
): LedgerRead {
  const { events, skipped } = decodeLedger(text, relevant);
  if (skipped > 0) {
    warnings.push(`facts ledger ${ledgerPath}: skipped ${skipped} damaged line${skipped === 1 ? '' : 's'}`);
  }
  return { facts: foldFacts(events), skipped, warnings };
}

function frozen(read: LedgerRead): LedgerRead {
  for (const fact of read.facts) Object.freeze(fact);
  Object.freeze(read.facts);
  Object.freeze(read.warnings);
  return Object.freeze(read);
}

// Appends always grow the file and `facts --clear` truncates it; either changes the size or the
// times (nanoseconds), and a new file its inode.
function stampOf(ledgerPath: string, stat: BigIntStats): string {
  return [ledgerPath, stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(':');
}

export function readFacts(ledgerPath: string, options: { all?: boolean } = {}): Fact[] {
  const { facts } = readLedger(ledgerPath);
  return options.all ? facts : facts.filter((fact) => fact.resolvedAt === null);
}

// The open facts about the programs a run is about to start (argv[0] of each stage, as asked).
// A program named with a slash is matched as the file it names from `cwd`.
export function openFactsFor(ledgerPath: string, programs: string[], cwd: string = process.cwd()): Fact[] {
  const keys = new Set(programs.map((program) => programKey(program, cwd)));
  return readFacts(ledgerPath).filter((fact) => keys.has(programKey(fact.program, fact.cwd)));
}

// Forgets everything. Truncation is safe against concurrent appenders: each of their lines lands
// whole, before or after it.
export function clearFacts(ledgerPath: string): string | null {
  try {
    truncateSync(ledgerPath, 0);
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `facts ledger ${ledgerPath}: cannot clear (${describeError(error)})`;
  }
}

interface OpenLedger {
  readonly fd: number;
  readonly stat: BigIntStats;
}

// Null when there is no ledger yet (no warning), or when it cannot be read (a warning).
function openLedger(ledgerPath: string, warnings: string[]): OpenLedger | null {
  let fd: number | null = null;
  try {
    fd = openSync(ledgerPath, 'r');
    return { fd, stat: fstatSync(fd, { bigint: true }) };
  } catch (error) {
    if (fd !== null) closeSync(fd);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(cannotRead(ledgerPath, error));
    return null;
  }
}

function cannotRead(ledgerPath: string, error: unknown): string {
  return `facts ledger ${ledgerPath}: cannot read (${describeError(error)}); known facts are not shown`;
}

function readTail(ledgerPath: string, file: OpenLedger, warnings: string[]): string {
  const size = Number(file.stat.size);
  const start = Math.max(0, size - MAX_READ_BYTES);
  const buf = Buffer.alloc(size - start);
  const length = readSync(file.fd, buf, 0, buf.length, start);
  const text = buf.toString('utf8', 0, length);
  if (start === 0) return text;
  const mib = (size / 1024 / 1024).toFixed(0);
  warnings.push(
    `facts ledger ${ledgerPath} is ${mib} MiB; only its last 8 MiB were read (counts may be low); run \`safe-run facts --clear\``,
  );
  return text.slice(text.indexOf('\n') + 1);
}
