import type { Report, StageResult, StepReport, Verdict } from '../../types.js';

// One command the text ran (a pipeline, a builtin, an assignment), as the report shows it.
export interface StepRecord {
  text: string;
  line: number;
  // The command this one ran inside (a command substitution's, a pipeline element's), when nested.
  parent: number | null;
  // Which pass of the loops around it, outermost first ("2" or "1.3"), when inside a loop.
  iteration: string | null;
  cwd: string;
  // bash's $? after it.
  status: number;
  // Its stages, numbered 1.. within the step.
  stages: StageResult[];
  // The engine's verdict for its stages (for a pipeline of programs), with its blamed stage local.
  verdict: Verdict | null;
  leftovers: Report['leftovers'];
  facts: Report['facts'];
  warnings: string[];
  expansions: { word: string; fields: string[] }[];
}

// A command the text did not run: the list's short circuit skipped it, or the text ended first.
interface SkippedStep {
  text: string;
  line: number;
  parent: number | null;
  iteration: string | null;
  cwd: string;
  connector: '&&' | '||' | null;
  because?: StepReport['skippedBecause'];
}

// What the list says about the next step it starts: the operator before it (`a && b`: b's), and a
// `!` before it (its status is inverted, as bash's $?).
export interface StepMarks {
  connector: '&&' | '||' | null;
  negated: boolean;
}

type Kept = StepRecord & {
  index: number;
  repeats?: number;
  connector?: '&&' | '||' | null;
  negated?: boolean;
  skipped?: { because?: StepReport['skippedBecause'] };
};

// How many steps are listed one by one before repeated successful ones (the same command at the
// same line, inside a loop) are folded into counts; failing steps are always kept.
const LISTED = 200;

const PENDING: StepRecord = {
  text: '',
  line: 0,
  parent: null,
  iteration: null,
  cwd: '/',
  status: 0,
  stages: [],
  verdict: null,
  leftovers: [],
  facts: [],
  warnings: [],
  expansions: [],
};

// The steps of a run as they happen, numbered in the order they started (a pipeline before the
// commands inside its elements); what a long loop repeats is folded so that the report stays bounded.
// Stages are numbered across the run in step order when the report is made.
export class Recorder {
  readonly steps: Kept[] = [];
  private readonly folded = new Map<string, number>();
  private stepCount = 0;
  // Reserved steps whose record has not come yet.
  private readonly reserved = new Set<number>();
  // Set by the and-or list for the next step recorded or reserved.
  marks: StepMarks = { connector: null, negated: false };

  // Takes the marks (a simple command takes them before its words are expanded, so that a command
  // substitution's steps do not, and gives them back before its own step is recorded).
  takeMarks(): StepMarks {
    const marks = this.marks;
    this.marks = { connector: null, negated: false };
    return marks;
  }

  // A step that did not run; `slot`: one reserved for it.
  skip(step: SkippedStep, slot?: number): void {
    if (slot !== undefined) {
      this.reserved.delete(slot);
      const { connector = null } = this.steps[slot - 1] ?? {};
      const because = step.because ? { because: step.because } : {};
      this.steps[slot - 1] = { ...PENDING, ...step, connector, status: 0, index: slot, skipped: because };
      return;
    }
    this.stepCount++;
    const key = `skip:${step.line}:${step.text}`;
    const fold = this.folded.get(key);
    if (fold !== undefined && this.steps.length >= LISTED) {
      const kept = this.steps[fold - 1]!;
      kept.repeats = (kept.repeats ?? 0) + 1;
      return;
    }
    const index = this.steps.length + 1;
    this.steps.push({
      ...PENDING,
      ...step,
      status: 0,
      index,
      skipped: step.because ? { because: step.because } : {},
    });
    if (fold === undefined) this.folded.set(key, index);
  }

  add(given: StepRecord): number {
    this.stepCount++;
    const { connector, negated } = this.takeMarks();
    const record = negated ? negate(given) : given;
    const key = `${record.line}:${record.text}`;
    const ok = record.status === 0 && record.stages.every((stage) => stage.succeeded);
    const fold = this.folded.get(key);
    if (fold !== undefined && ok && this.steps.length >= LISTED) {
      const kept = this.steps[fold - 1]!;
      kept.repeats = (kept.repeats ?? 0) + 1;
      return fold;
    }
    const index = this.steps.length + 1;
    this.steps.push({ ...record, index, connector, negated });
    if (ok && fold === undefined) this.folded.set(key, index);
    return index;
  }

  // A step whose record comes later (a pipeline: its elements' own steps come under it).
  reserve(): number {
    this.stepCount++;
    this.steps.push({ ...PENDING, index: this.steps.length + 1, ...this.takeMarks() });
    this.reserved.add(this.steps.length);
    return this.steps.length;
  }

  // Whether a reserved step still waits for its record.
  pending(index: number): boolean {
    return this.reserved.has(index);
  }

  fill(index: number, record: StepRecord): void {
    this.reserved.delete(index);
    const { connector = null, negated = false } = this.steps[index - 1] ?? {};
    this.steps[index - 1] = { ...(negated ? negate(record) : record), index, connector, negated };
  }

  get total(): number {
    return this.stepCount;
  }

  // Every stage, numbered across the run in step order, each with its step.
  get stages(): StageResult[] {
    return this.numbered().stages;
  }

  private numbered(): { stages: StageResult[]; first: number[] } {
    const stages: StageResult[] = [];
    const first: number[] = [];
    for (const step of this.steps) {
      first.push(stages.length + 1);
      for (const stage of step.stages) stages.push({ ...stage, index: stages.length + 1, step: step.index });
    }
    return { stages, first };
  }

  // The report's steps.
  stepReports(): StepReport[] {
    const { first } = this.numbered();
    return this.steps.map((step, k) => ({
      index: step.index,
      text: step.text,
      connector: step.connector ?? null,
      ran: step.skipped === undefined,
      exitCode: step.skipped ? null : step.status,
      cwd: step.cwd,
      stages: step.stages.map((_, i) => first[k]! + i),
      line: step.line,
      ...(step.parent === null ? {} : { parent: step.parent }),
      ...(step.iteration === null ? {} : { iteration: step.iteration }),
      ...(step.repeats ? { repeats: step.repeats } : {}),
      ...(step.expansions.length > 0 ? { expansions: step.expansions } : {}),
      ...(step.skipped?.because ? { skippedBecause: step.skipped.because } : {}),
    }));
  }

  // The run-wide number of a step's stage (1-based within the step).
  globalStage(step: number, local: number): number {
    return this.numbered().first[step - 1]! + local - 1;
  }
}

// A step under `!`: shown with it, its status inverted as bash's $?.
function negate(record: StepRecord): StepRecord {
  const text = record.text.startsWith('!') ? record.text : `! ${record.text}`;
  return { ...record, text, status: record.status === 0 ? 1 : 0 };
}
