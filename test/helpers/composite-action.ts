import fs from 'node:fs';
import { parse } from 'yaml';
import { type RunnerJob, runStep, type StepResult } from './github-runner.js';

// Runs a composite action's steps as the GitHub runner does: each `run:` with its `shell:`, its
// `env:` evaluated, GITHUB_PATH and GITHUB_ENV applied between steps (runStep does that), and the
// action's outputs read from each step's GITHUB_OUTPUT. Only the expressions the action may use
// are known (`inputs.NAME`, `steps.ID.outputs.NAME`); any other one fails the test.

interface ActionStep {
  id?: string;
  name?: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
  if?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface ActionResult {
  // The first failed step's, or the last step's.
  code: number | null;
  steps: StepResult[];
  outputs: Record<string, string>;
}

// The runner's shell lines for `shell: bash` and `shell: sh` (its documented templates).
const SHELLS: Record<string, string> = {
  bash: 'bash --noprofile --norc -eo pipefail {0}',
  sh: 'sh -e {0}',
};

export function readAction(file: string): Action {
  return parse(fs.readFileSync(file, 'utf8')) as Action;
}

function evaluate(text: string, scope: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, name: string) => {
    if (!(name in scope)) throw new Error(`the action uses an expression the test does not know: ${name}`);
    return scope[name]!;
  });
}

function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

export async function runCompositeAction(
  job: RunnerJob,
  file: string,
  inputs: Record<string, string> = {},
): Promise<ActionResult> {
  const action = readAction(file);
  if (action.runs.using !== 'composite') throw new Error(`${file} is not a composite action`);
  const scope: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs))
    scope[`inputs.${name}`] = inputs[name] ?? spec.default ?? '';
  const steps: StepResult[] = [];
  let code: number | null = 0;
  for (const step of action.runs.steps) {
    if (step.if !== undefined) throw new Error(`the test does not evaluate if: ${step.if}`);
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), scope)]),
    );
    const shell = SHELLS[step.shell];
    if (!shell) throw new Error(`the test does not know shell: ${step.shell}`);
    const result = await runStep(job, evaluate(step.run, scope), { shell, env });
    steps.push(result);
    if (step.id) {
      for (const [name, value] of Object.entries(readOutputs(job.files.output)))
        scope[`steps.${step.id}.outputs.${name}`] = value;
    }
    code = result.code;
    if (code !== 0) break;
  }
  const outputs: Record<string, string> = {};
  if (code === 0) {
    for (const [name, spec] of Object.entries(action.outputs)) outputs[name] = evaluate(spec.value, scope);
  }
  return { code, steps, outputs };
}
