import { resolve } from 'node:path';
import type { LedgerEvent, NotStartedEvent } from './ledger-events.js';

// A fact about the machine: one program that could not be started, for one reason, from the first
// time it was seen until it started again. This is the public JSON shape (`facts[]`, `safe-run facts
// --json`); docs/environment-facts.md describes it field by field.
export type Fact = Pick<
  NotStartedEvent,
  'program' | 'cwd' | 'found' | 'code' | 'cause' | 'exitCode' | 'message' | 'interpreter' | 'pathVar'
> & {
  // cwd, found, pathVar and message are those of the latest sighting.
  firstSeen: string;
  lastSeen: string;
  count: number;
  // When the program next started (and what was executed then); null while the fact is open.
  resolvedAt: string | null;
  resolvedPath: string | null;
};

// Which program a fact is about: a bare name is the same program everywhere; a path with a slash
// is the file it names, so `./build.sh` in two directories is two programs.
export function programKey(program: string, cwd: string): string {
  return program.includes('/') ? resolve(cwd, program) : program;
}

// Folds the log in file order (the order the appends landed). A `started` event resolves every open
// fact about its program; a later `not-started` opens a new fact rather than reviving the old one.
export function foldFacts(events: LedgerEvent[]): Fact[] {
  const facts: Fact[] = [];
  const open = new Map<string, Fact>();
  for (const event of events) {
    const key = programKey(event.program, event.cwd);
    if (event.event === 'started') {
      for (const [factKey, fact] of open) {
        if (!factKey.startsWith(`${key}\0`)) continue;
        fact.resolvedAt = event.at;
        fact.resolvedPath = event.resolvedPath;
        open.delete(factKey);
      }
      continue;
    }
    const factKey = `${key}\0${event.code}\0${event.cause}`;
    const fact = open.get(factKey);
    if (fact === undefined) {
      const created = newFact(event);
      facts.push(created);
      open.set(factKey, created);
      continue;
    }
    fact.count += 1;
    if (event.at < fact.firstSeen) fact.firstSeen = event.at;
    if (event.at >= fact.lastSeen) {
      fact.lastSeen = event.at;
      Object.assign(fact, latest(event));
    }
  }
  return facts;
}

function newFact(event: NotStartedEvent): Fact {
  return {
    program: event.program,
    cwd: event.cwd,
    found: event.found,
    code: event.code,
    cause: event.cause,
    exitCode: event.exitCode,
    message: event.message,
    interpreter: event.interpreter,
    pathVar: event.pathVar,
    firstSeen: event.at,
    lastSeen: event.at,
    count: 1,
    resolvedAt: null,
    resolvedPath: null,
  };
}

// The fields that describe the latest sighting.
function latest(
  event: NotStartedEvent,
): Pick<Fact, 'cwd' | 'found' | 'exitCode' | 'message' | 'interpreter' | 'pathVar'> {
  const { cwd, found, exitCode, message, interpreter, pathVar } = event;
  return { cwd, found, exitCode, message, interpreter, pathVar };
}
