// One program that could not be started: what a run saw, as the ledger records it and a fact keeps it.
export interface Sighting {
  // argv[0] as the user asked for it.
  program: string;
  cwd: string;
  // The file PATH lookup (or the path given) led to, null when nothing was found.
  found: string | null;
  code: string;
  cause: string;
  exitCode: number;
  message: string;
  interpreter: string | null;
  // PATH as the stage saw it, null when unset.
  pathVar: string | null;
}

// A fact about the machine: one program that could not be started, for one reason, from the first
// time it was seen until it started again. This is the public JSON shape (`facts[]`, `safe-run facts
// --json`); docs/environment-facts.md describes it field by field. cwd, found, pathVar and message
// are those of the latest sighting.
export interface Fact extends Sighting {
  firstSeen: string;
  lastSeen: string;
  count: number;
  // When the program next started (and what was executed then); null while the fact is open.
  resolvedAt: string | null;
  resolvedPath: string | null;
}

// An environment fact about one of the run's programs (docs/environment-facts.md).
export interface ReportFact extends Fact {
  // 1-based index of the stage whose program it is about.
  stage: number;
  summary: string;
}
