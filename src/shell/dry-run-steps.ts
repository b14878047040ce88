import { RunSupport } from '../engine/run-support.js';
import { blankStage } from '../inputs/command-stages.js';
import { assignStageNames } from '../inputs/stage-names.js';
import type { Plan, StageSpec } from '../types.js';
import { Oracle } from './expand/oracle.js';
import { BUILTINS } from './interp/builtins/registry.js';
import { initShell } from './interp/init-shell.js';
import { Jobs } from './interp/jobs-table.js';
import { Recorder } from './interp/recorder.js';
import { Runner } from './interp/runner.js';
import type { Runtime } from './interp/runtime.js';
import { initialState } from './shell-state.js';
import type { SimpleCommand, Word } from './syntax/nodes.js';
import { fromBytes } from './syntax/source.js';
import { walkWord } from './syntax/walk.js';
import { writtenCommands } from './written-commands.js';

// One command of a -c text as --dry-run shows it: its text and line, its stage in the flat plan (none
// for a builtin), what its words expand to, and why a real run may differ.
export interface DryRunStep {
  index: number;
  text: string;
  line: number;
  connector: null;
  stages: number[];
  expansions: { word: string; fields: string[] }[];
  caveat: string | null;
}

// Every command of the text in the order written, without running anything: words are expanded only
// when nothing in them would run (no command substitution), against the variables the text starts
// with; programs are looked up for preflight. What a real run does depends on what runs first.
export async function planShellDryRun(
  plan: Plan,
  env: Record<string, string | undefined>,
): Promise<{ plan: Plan; steps: DryRunStep[] }> {
  const shell = plan.shell!;
  const state = { ...initialState(plan.cwd ?? process.cwd(), plan.env ?? env), status: 0 };
  const support = new RunSupport();
  const rt = dryRuntime(plan, support, state.env);
  const runner = new Runner(rt, initShell(state, shell.arg0, shell.args), {
    parentStep: null,
    iteration: null,
    source: shell.source,
  });
  const stages: StageSpec[] = [];
  const steps: DryRunStep[] = [];
  try {
    for (const command of writtenCommands(shell.script))
      steps.push(await dryStep(runner, command, steps.length + 1, stages));
  } finally {
    await rt.oracle.close();
    support.close();
  }
  const names = assignStageNames(stages.map((stage) => stage.argv[0] ?? ''));
  stages.forEach((stage, i) => {
    stage.name = names[i]!;
  });
  return { plan: { ...plan, stages }, steps };
}

function dryRuntime(plan: Plan, support: RunSupport, env: Record<string, string>): Runtime {
  return {
    settings: plan.settings,
    environment: env,
    command: '',
    support,
    oracle: new Oracle(env),
    io: {},
    recorder: new Recorder(),
    stdin: { fd: null },
    pid: process.pid,
    deadline: null,
    cancelled: null,
    stoppedBy: null,
    refused: null,
    grace: null,
    timedOutBefore: null,
    stepsOfText: null,
    ansiRead: new WeakMap(),
    openStop: new Promise(() => {}),
    running: new Set(),
    jobs: new Jobs(),
    shellSignals: new Map(),
    vouched: null,
    okCodesFor: () => null,
    scratch: () => {
      throw new Error('a dry run writes nothing');
    },
  };
}

// Whether expanding the word could run something (a command or process substitution).
function runsSomething(word: Word): boolean {
  let found = false;
  walkWord(word, {
    part: (part) => {
      if (part.kind === 'cmdsubst' || part.kind === 'procsubst') found = true;
    },
  });
  return found;
}

async function dryStep(
  runner: Runner,
  command: SimpleCommand,
  index: number,
  stages: StageSpec[],
): Promise<DryRunStep> {
  const text = fromBytes(runner.place.source.slice(command.start.offset, command.end.offset)).trim();
  const step: DryRunStep = {
    index,
    text,
    line: command.start.line,
    connector: null,
    stages: [],
    expansions: [],
    caveat: null,
  };
  if (command.words.some(runsSomething)) {
    step.caveat = 'a command substitution decides its words: nothing is substituted in a dry run';
    return step;
  }
  let argv: string[];
  try {
    argv = (await runner.ex.fields(command.words)).map(fromBytes);
  } catch {
    step.caveat = 'its words could not be expanded before the text runs';
    return step;
  }
  for (const word of command.words) {
    if (word.parts.length !== 1 || word.parts[0]!.kind !== 'lit') {
      step.expansions.push({
        word: fromBytes(word.raw ?? ''),
        fields: (await runner.ex.fields([word])).map(fromBytes),
      });
    }
  }
  const name = argv[0];
  if (name === undefined || (!name.includes('/') && BUILTINS.has(name))) return step;
  stages.push({ ...blankStage(), name, argv, cwd: fromBytes(runner.sh.cwd) });
  step.stages.push(stages.length);
  return step;
}
