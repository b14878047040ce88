import type { Sighting } from '../types.js';

// The ledger is an append-only log of these events, one JSON object per line. Writers only ever
// append one whole line; readers fold the events into facts (fold-facts.ts). Every line starts with
// `{"v":1,"event":` so a reader can find a record glued behind a torn one.

export interface NotStartedEvent extends Sighting {
  v: 1;
  event: 'not-started';
  at: string;
  host: string;
  pid: number;
  // Set when long fields were shortened to keep the line small.
  truncated?: true;
}

export interface StartedEvent {
  v: 1;
  event: 'started';
  at: string;
  program: string;
  cwd: string;
  resolvedPath: string;
  host: string;
  pid: number;
}

export type LedgerEvent = NotStartedEvent | StartedEvent;

// One line stays well under PIPE_BUF (4096) so a single O_APPEND write is whole even where the
// file system is less careful than Linux's local ones.
const MAX_LINE_BYTES = 3800;
const RECORD_START = '{"v":1,"event":';

export function encodeEvent(event: LedgerEvent): string {
  let line = JSON.stringify(event);
  if (event.event !== 'not-started') return line;
  // Shorten the long fields, harder each round (multi-byte or escaped text takes more bytes).
  for (const scale of [1, 0.25, 0.05]) {
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return line;
    const max = (n: number) => Math.ceil(n * scale);
    const short: NotStartedEvent = {
      ...event,
      program: cut(event.program, max(400)),
      cwd: cut(event.cwd, max(400)),
      found: event.found === null ? null : cut(event.found, max(400)),
      message: cut(event.message, max(600)),
      interpreter: event.interpreter === null ? null : cut(event.interpreter, max(300)),
      pathVar: event.pathVar === null ? null : cut(event.pathVar, max(1000)),
      truncated: true,
    };
    line = JSON.stringify(short);
  }
  return line;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} more]`;
}

interface DecodedLedger {
  events: LedgerEvent[];
  // Lines that were not a whole record: torn, garbage, or an unfinished last line.
  skipped: number;
}

// `relevant`: a cheap test of a line's text; a line it turns down is not parsed, only checked for the
// shape of a whole record (damage is counted all the same).
export function decodeLedger(text: string, relevant?: (line: string) => boolean): DecodedLedger {
  const events: LedgerEvent[] = [];
  let skipped = 0;
  const lines = text.split('\n');
  // A last line without its newline is a record still being written: a write(2) that crosses a page
  // grows the file in two steps, and a reader between them sees half a line (measured: 25 of 11,447
  // reads during 200 KB appends). Not a record yet, and not damage: if a crash tore it, the next
  // append glues onto it and that line is counted then.
  lines.pop();
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (relevant && !relevant(line)) {
      if (!wholeShape(line)) skipped += 1;
      continue;
    }
    const event = parseEvent(line);
    if (event !== null) {
      events.push(event);
      continue;
    }
    skipped += 1;
    const glued = line.lastIndexOf(RECORD_START);
    const recovered = glued > 0 ? parseEvent(line.slice(glued)) : null;
    if (recovered !== null) events.push(recovered);
  }
  return { events, skipped };
}

// One record, beginning to end, as far as can be told without parsing it.
function wholeShape(line: string): boolean {
  return line.startsWith(RECORD_START) && line.lastIndexOf(RECORD_START) === 0 && line.endsWith('}');
}

// A test of a line's text that passes every record about these programs (as a run names them: the
// same file may be named by another relative path elsewhere, so by the last part of the name,
// followed by the next field, as encodeEvent writes it) and few others. Undefined where the name
// may have been shortened (encodeEvent) or ends in a slash: then every line must be read.
export function mentionsAny(programs: readonly string[]): ((line: string) => boolean) | undefined {
  const needles: string[] = [];
  for (const program of programs) {
    if (program.length > 100 || program.endsWith('/')) return undefined;
    const last = program.slice(program.lastIndexOf('/') + 1);
    needles.push(`${JSON.stringify(last).slice(1, -1)}","cwd":`);
  }
  return (line) => needles.some((needle) => line.includes(needle));
}

function parseEvent(line: string): LedgerEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const strings = (...keys: string[]) => keys.every((key) => typeof record[key] === 'string');
  const nullableStrings = (...keys: string[]) =>
    keys.every((key) => record[key] === null || typeof record[key] === 'string');
  if (record.v !== 1 || !strings('at', 'program', 'cwd')) return null;
  if (record.event === 'started' && strings('resolvedPath')) return record as unknown as StartedEvent;
  if (
    record.event === 'not-started' &&
    strings('code', 'cause', 'message') &&
    nullableStrings('found', 'interpreter', 'pathVar') &&
    typeof record.exitCode === 'number'
  ) {
    return record as unknown as NotStartedEvent;
  }
  return null;
}
