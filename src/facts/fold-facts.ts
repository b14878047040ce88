import { resolve } from 'node:path';
import type { Fact } from '../types.js';
import type { LedgerEvent, NotStartedEvent } from './ledger-events.js';

export type { Fact } from '../types.js';

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

// The fields that describe the latest sighting. The program as it was written then goes with its
// cwd: `./build.sh` from /a and `../a/build.sh` from /a/sub are one program, and the fact must not
// say `./build.sh` in /a/sub (a file that is not there).
function latest(
  event: NotStartedEvent,
): Pick<Fact, 'program' | 'cwd' | 'found' | 'exitCode' | 'message' | 'interpreter' | 'pathVar'> {
  const { program, cwd, found, exitCode, message, interpreter, pathVar } = event;
  return { program, cwd, found, exitCode, message, interpreter, pathVar };
}
