import { maskText } from '../capture/mask.js';
import type { ReportFact } from '../types.js';
import { describeFact } from './describe-fact.js';
import type { Fact } from './fold-facts.js';
import { programKey } from './fold-facts.js';
import {
  type NotStartedCause,
  notStartedEntry,
  readLedger,
  recordNotStarted,
  recordStarted,
} from './ledger.js';

// What the facts need to know about one stage: data the engine hands over, so the ledger never
// depends on the engine's records.
export interface FactsStage {
  // 1-based stage index.
  index: number;
  // argv[0] as the user asked for it.
  program: string;
  cwd: string;
  env: Record<string, string>;
  // The file that was executed (or would have been), when one was found.
  resolvedPath: string | null;
  // Why preflight found it cannot start, or null.
  notStarted: NotStartedCause | null;
}

// One run's dealings with the facts ledger: read once at the start, append a fact for every stage
// that could not start, mark known facts resolved when their program starts, and say at the end
// what is known about this run's programs. A ledger problem is a warning, never a failure.
export class RunFacts {
  // Open facts about this run's programs when the run began.
  private readonly known: Fact[];
  // Programs (by programKey) whose open facts this run resolved: when, and what was executed.
  private readonly resolved = new Map<string, { at: string; path: string | null }>();
  private appended = false;
  readonly warnings: string[] = [];

  private readonly stages: readonly FactsStage[];

  // `secrets`: the run's secret values. The ledger is shared by every run on the machine and
  // outlives them all, so nothing reaches it (or the facts said about it) unmasked.
  constructor(
    private readonly ledger: string,
    stages: readonly FactsStage[],
    private readonly secrets: readonly string[] = [],
  ) {
    this.stages = stages.map((stage) => this.masked(stage));
    const read = readLedger(ledger, this.programs());
    this.warnings.push(...read.warnings);
    this.known = this.openFactsAboutRuns(read.facts);
  }

  // `stages` as preflight left them: those that cannot start become facts.
  recordPreflight(stages: readonly FactsStage[]): void {
    for (const stage of stages.map((one) => this.masked(one))) {
      if (stage.notStarted === null) continue;
      const entry = notStartedEntry(stage.program, stage.notStarted, stage.env, stage.cwd);
      this.appended = true;
      this.warn(recordNotStarted(this.ledger, entry));
    }
  }

  recordStarted(stage: FactsStage): void {
    const { program, cwd, resolvedPath } = this.masked(stage);
    const key = programKey(program, cwd);
    // Two stages running the same program resolve its facts once.
    if (this.resolved.has(key) || !this.known.some((fact) => keyOf(fact) === key)) return;
    const at = new Date().toISOString();
    this.resolved.set(key, { at, path: resolvedPath });
    const entry = { program, cwd, resolvedPath: resolvedPath ?? program, at };
    this.warn(recordStarted(this.ledger, entry, this.known));
  }

  // Open facts about this run's programs, and those this run just resolved, each with a sentence.
  // The ledger is read again only when this run added to it, so the counts include this run.
  report(): ReportFact[] {
    const open = this.appended
      ? this.openFactsAboutRuns(readLedger(this.ledger, this.programs()).facts)
      : this.known;
    const out: ReportFact[] = [];
    const seen = new Set<string>();
    for (const stage of this.stages) {
      const key = programKey(stage.program, stage.cwd);
      const resolved = this.resolved.get(key);
      const facts = resolved
        ? this.known
            .filter((fact) => keyOf(fact) === key)
            .map((fact) => ({ ...fact, resolvedAt: resolved.at, resolvedPath: resolved.path }))
        : open.filter((fact) => keyOf(fact) === key);
      for (const fact of facts) {
        const id = `${key}\0${fact.code}\0${fact.cause}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ ...fact, stage: stage.index, summary: describeFact(fact) });
      }
    }
    return out;
  }

  private programs(): string[] {
    return this.stages.map((stage) => stage.program);
  }

  private openFactsAboutRuns(facts: Fact[]): Fact[] {
    const keys = new Set(this.stages.map((stage) => programKey(stage.program, stage.cwd)));
    return facts.filter((fact) => fact.resolvedAt === null && keys.has(keyOf(fact)));
  }

  // A stage as the ledger may see it: every text that can hold a secret masked. Matching facts by
  // program stays exact, since every run masks the same value the same way.
  private masked(stage: FactsStage): FactsStage {
    if (this.secrets.length === 0) return stage;
    const m = (text: string) => maskText(text, this.secrets);
    const n = (text: string | null) => (text === null ? null : m(text));
    const cause = stage.notStarted;
    const path = stage.env.PATH;
    return {
      ...stage,
      program: m(stage.program),
      cwd: m(stage.cwd),
      env: path === undefined ? {} : { PATH: m(path) },
      resolvedPath: n(stage.resolvedPath),
      notStarted: cause
        ? { ...cause, path: n(cause.path), message: m(cause.message), interpreter: n(cause.interpreter) }
        : null,
    };
  }

  private warn(problem: string | null): void {
    if (problem) this.warnings.push(problem);
  }
}

function keyOf(fact: Fact): string {
  return programKey(fact.program, fact.cwd);
}
