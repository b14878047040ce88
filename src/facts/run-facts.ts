import type { Unresolved } from '../engine/resolve-program.js';
import type { StageRun } from '../engine/stage-run.js';
import type { ReportFact } from '../types.js';
import { describeFact } from './describe-fact.js';
import type { Fact } from './fold-facts.js';
import { programKey } from './fold-facts.js';
import { notStartedEntry, openFactsFor, recordNotStarted, recordStarted } from './ledger.js';

// One run's dealings with the facts ledger: read once at the start, append a fact for every stage
// that could not start, mark known facts resolved when their program starts, and say at the end
// what is known about this run's programs. A ledger problem is a warning, never a failure.
export class RunFacts {
  private known: Fact[] = [];
  private readonly resolved = new Set<string>();
  readonly warnings: string[] = [];

  constructor(
    private readonly ledger: string,
    private readonly runs: readonly StageRun[],
  ) {
    for (const run of runs) this.known.push(...openFactsFor(ledger, [run.spec.argv[0]!], run.cwd));
  }

  recordPreflight(): void {
    for (const run of this.runs) {
      const resolution = run.resolution as Unresolved | null;
      if (resolution?.ok !== false) continue;
      const entry = notStartedEntry(run.spec.argv[0]!, resolution, run.env, run.cwd);
      this.warn(recordNotStarted(this.ledger, entry));
    }
  }

  recordStarted(run: StageRun): void {
    const program = run.spec.argv[0]!;
    const key = programKey(program, run.cwd);
    if (!this.known.some((fact) => programKey(fact.program, fact.cwd) === key)) return;
    this.warn(
      recordStarted(
        this.ledger,
        { program, cwd: run.cwd, resolvedPath: run.resolvedPath ?? program },
        this.known,
      ),
    );
    this.resolved.add(key);
  }

  // Open facts about this run's programs, and those this run just resolved, each with a sentence.
  report(): ReportFact[] {
    const out: ReportFact[] = [];
    const seen = new Set<string>();
    for (const run of this.runs) {
      const program = run.spec.argv[0]!;
      const key = programKey(program, run.cwd);
      const facts = this.resolved.has(key)
        ? this.known
            .filter((fact) => programKey(fact.program, fact.cwd) === key)
            .map((fact) => ({
              ...fact,
              resolvedAt: new Date().toISOString(),
              resolvedPath: run.resolvedPath,
            }))
        : openFactsFor(this.ledger, [program], run.cwd);
      for (const fact of facts) {
        const id = `${key}\0${fact.code}\0${fact.cause}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ ...fact, stage: run.index, summary: describeFact(fact) });
      }
    }
    return out;
  }

  private warn(problem: string | null): void {
    if (problem) this.warnings.push(problem);
  }
}
