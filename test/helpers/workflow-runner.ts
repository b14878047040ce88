import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './cli.js';
import { type ActionResult, runCompositeAction } from './composite-action.js';
import type { RunnerJob, StepResult } from './github-runner.js';
import { runStep } from './github-runner.js';

// Runs one job of a GitHub workflow file as the runner would, for the workflow docs/ci.md shows:
// `run:` steps through the job's `defaults.run.shell` (or their own `shell:`) with the job's `env:`,
// this repository's action for `uses: OWNER/safe-run@REF`, and the few other actions the example
// uses: checkout (the project is copied into the workspace), setup-node (this machine's Node is on
// PATH already) and upload-artifact (the files it would upload are listed). A step after a failed
// one runs only with `if: always()`, as on the runner. Anything else fails the test.

interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

interface WorkflowJob {
  'runs-on': string;
  defaults?: { run?: { shell?: string } };
  env?: Record<string, string>;
  steps: WorkflowStep[];
}

export type StepOutcome =
  | { kind: 'run'; name: string; result: StepResult }
  | { kind: 'action'; name: string; result: ActionResult }
  | { kind: 'checkout' | 'setup-node'; name: string }
  | { kind: 'upload'; name: string; files: string[] }
  | { kind: 'skipped'; name: string };

const ACTION = path.join(ROOT, 'action.yml');

export function readWorkflowJob(text: string, jobName: string): WorkflowJob {
  const workflow = parse(text) as { jobs: Record<string, WorkflowJob> };
  const job = workflow.jobs[jobName];
  if (!job) throw new Error(`no job ${jobName} in the workflow`);
  return job;
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name));
}

async function runUses(runner: RunnerJob, step: WorkflowStep, project: string): Promise<StepOutcome> {
  const name = step.name ?? step.uses!;
  const action = step.uses!.split('@')[0]!;
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
  if (action === 'actions/checkout') {
    fs.cpSync(project, runner.workspace, { recursive: true });
    return { kind: 'checkout', name };
  }
  if (action === 'actions/setup-node') {
    if (Number(process.versions.node.split('.')[0]) < Number(inputs['node-version'])) {
      throw new Error(
        `setup-node asks for Node ${inputs['node-version']}, this machine has ${process.version}`,
      );
    }
    return { kind: 'setup-node', name };
  }
  if (action === 'actions/upload-artifact') {
    return { kind: 'upload', name, files: listFiles(path.join(runner.workspace, inputs.path ?? '.')) };
  }
  if (action.endsWith('/safe-run'))
    return { kind: 'action', name, result: await runCompositeAction(runner, ACTION, inputs) };
  throw new Error(`the test does not know the action ${step.uses}`);
}

function failed(outcome: StepOutcome): boolean {
  if (outcome.kind === 'run' || outcome.kind === 'action') return outcome.result.code !== 0;
  return false;
}

// Runs the job's steps in order in `runner`; `project` is what checkout brings.
export async function runWorkflowJob(
  runner: RunnerJob,
  job: WorkflowJob,
  project: string,
): Promise<StepOutcome[]> {
  Object.assign(runner.env, job.env ?? {});
  const outcomes: StepOutcome[] = [];
  let jobFailed = false;
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
    if (step.if !== undefined && step.if !== 'always()')
      throw new Error(`the test does not evaluate if: ${step.if}`);
    if (jobFailed && step.if !== 'always()') {
      outcomes.push({ kind: 'skipped', name });
      continue;
    }
    let outcome: StepOutcome;
    if (step.uses) outcome = await runUses(runner, step, project);
    else {
      const shell = step.shell ?? job.defaults?.run?.shell ?? 'bash --noprofile --norc -eo pipefail {0}';
      outcome = {
        kind: 'run',
        name,
        result: await runStep(runner, step.run!, { shell, env: step.env ?? {} }),
      };
    }
    outcomes.push(outcome);
    jobFailed ||= failed(outcome);
  }
  return outcomes;
}
