import { MASK, maskText } from '../capture/mask.js';
import { maskSettings } from '../engine/report/mask-report.js';
import { type ResolvedStage, resolvePlan } from '../engine/resolve-plan.js';
import { WORDINGS } from '../outcome-text/wordings.js';
import type { DeliveryPlan } from '../output/deliver.js';
import { decideVerdict } from '../policy/verdict.js';
import { showSettings } from '../settings/derive.js';
import { durationText, sizeText } from '../settings/value-text.js';
import { type DryRunStep, planShellDryRun } from '../shell/dry-run-steps.js';
import type { Plan, Settings, StageError, Verdict } from '../types.js';
import type { CliIO } from './cli-io.js';
import { type DryRunOutput, describeOutput, renderOutput } from './dry-run-output.js';

// One stage of the plan as it would start: the file that would be executed, where, and with what.
interface DryRunStage {
  index: number;
  name: string;
  argv: string[];
  // The stage's own variables (not the inherited ones); secret-looking and --mask values as ***.
  env: Record<string, string>;
  cwd: string;
  okCodes: number[];
  optional: boolean;
  timeoutMs: number | null;
  maxStdout: number | null;
  maxStderr: number | null;
  resolvedPath: string | null;
  interpreter: string | null;
  ok: boolean;
  error: StageError | null;
  warnings: string[];
}

// `--dry-run --json`: the plan, and the exit code a real run would end with before starting anything.
export interface DryRunDocument {
  schemaVersion: 1;
  dryRun: true;
  ok: boolean;
  exitCode: number;
  reason: string;
  source: Plan['source'];
  stages: DryRunStage[];
  settings: Settings;
  // -c lists: the steps, their stages and what their words expanded to.
  steps?: DryRunStep[];
  // --output or --atomic-redirects: where the product would be staged and its checks; else null.
  output: DryRunOutput | null;
}

// Validates and resolves a plan without starting anything: exit 0, or the 126/127 a real run would
// end with when preflight fails. Nothing is spawned, opened or written; only the plan is printed.
export async function dryRun(
  given: Plan,
  json: boolean,
  io: CliIO,
  delivery: DeliveryPlan | null = null,
): Promise<number> {
  const shell = given.shell ? await planShellDryRun(given, io.env) : null;
  const plan = shell ? shell.plan : given;
  const resolved = resolvePlan(plan);
  const stages = resolved.stages.map((stage) => describeStage(stage, plan.settings.mask, resolved.secrets));
  const verdict = preflightVerdict(resolved.stages, plan.settings);
  const m = (text: string) => maskText(text, resolved.secrets);
  const n = (text: string | null) => (text === null ? null : m(text));
  const document: DryRunDocument = {
    schemaVersion: 1,
    dryRun: true,
    ok: verdict.ok,
    exitCode: verdict.exitCode,
    reason: m(verdict.reason),
    source: plan.source,
    stages,
    settings: maskSettings(plan.settings, m, n),
    ...(shell
      ? {
          steps: shell.steps.map((step) => ({
            ...step,
            text: m(step.text),
            expansions: step.expansions.map((e) => ({ word: m(e.word), fields: e.fields.map(m) })),
            caveat: n(step.caveat),
          })),
        }
      : {}),
    // In a -c text every command written is a stage when it runs (builtins too): the last is the last.
    output: delivery
      ? describeOutput(
          delivery,
          shell ? shell.steps.length : (stages.at(-1)?.index ?? null),
          resolved.secrets,
        )
      : null,
  };
  io.stdout.write(json ? `${JSON.stringify(document, null, 2)}\n` : renderPlan(document));
  return verdict.exitCode;
}

// The verdict of a run that stops at preflight, decided by the same policy code as a real run. Every
// stage counts here, optional or not: a program that cannot start stops the whole pipeline.
function preflightVerdict(stages: readonly ResolvedStage[], settings: Settings): Verdict {
  const outcomes = stages.map((stage) => ({
    index: stage.index,
    name: stage.spec.name,
    status: stage.error ? ('not-started' as const) : ('skipped' as const),
    exitCode: null,
    signal: null,
    optional: false,
    error: stage.error,
  }));
  const verdict = decideVerdict(outcomes, {
    policy: settings.policy,
    sigpipe: settings.sigpipe,
    stdoutReaderGone: false,
    interruptedBy: null,
  });
  const said = WORDINGS.verdict;
  if (verdict.ok) return { ...verdict, reason: said.startable };
  const blamed = outcomes[(verdict.blamedStage ?? 1) - 1]!;
  return {
    ...verdict,
    reason: said.cannotStart(WORDINGS.outcome.who(blamed), blamed.error?.code ?? 'error'),
  };
}

function describeStage(
  stage: ResolvedStage,
  mask: readonly string[],
  secrets: readonly string[],
): DryRunStage {
  const { spec, resolution } = stage;
  const m = (text: string) => maskText(text, secrets);
  const env = Object.fromEntries(
    Object.entries(spec.env).map(([name, value]) => [
      name,
      mask.includes(name) || secrets.includes(value) ? MASK : maskText(value, secrets),
    ]),
  );
  return {
    index: stage.index,
    name: m(spec.name),
    argv: spec.argv.map(m),
    env,
    cwd: m(stage.cwd),
    okCodes: spec.okCodes,
    optional: spec.optional,
    timeoutMs: spec.timeoutMs,
    maxStdout: spec.maxStdout,
    maxStderr: spec.maxStderr,
    resolvedPath: resolution?.path ? m(resolution.path) : null,
    interpreter: resolution?.interpreter ? m(resolution.interpreter) : null,
    ok: stage.error === null,
    error: stage.error && { ...stage.error, message: m(stage.error.message) },
    warnings: resolution?.ok ? resolution.warnings.map(m) : [],
  };
}

const SOURCES: Record<Plan['source'], string> = {
  argv: 'the command after --',
  inline: 'the -c pipeline',
  spec: 'the spec file',
};

// The plan for a person: one block per stage, then every effective setting under the name a spec
// file gives it, in the units a spec file would use.
function renderPlan(document: DryRunDocument): string {
  const count = document.stages.length;
  const lines = [`dry run: ${count} stage${count === 1 ? '' : 's'} from ${SOURCES[document.source]}`];
  const stepOf = new Map<number, DryRunStep>();
  for (const step of document.steps ?? []) for (const index of step.stages) stepOf.set(index, step);
  for (const step of document.steps ?? []) {
    if (step.stages.length === 0 || (document.steps?.length ?? 0) > 1) {
      const joined = step.connector ? `${step.connector} ` : '';
      // "command", not "step": a dry run lists every command alone, where a run's step is a whole
      // pipeline or list element.
      lines.push(`command ${step.index}: ${joined}${step.text}`);
      for (const e of step.expansions) lines.push(`  expands   ${e.word} -> ${JSON.stringify(e.fields)}`);
      if (step.caveat && step.expansions.length > 0) lines.push(`  note      ${step.caveat}`);
    }
  }
  for (const stage of document.stages) {
    const step = stepOf.get(stage.index);
    lines.push(
      `stage ${stage.index} "${stage.name}"${step && (document.steps?.length ?? 0) > 1 ? ` (command ${step.index})` : ''}`,
    );
    const row = (label: string, value: string) => lines.push(`  ${label.padEnd(10)} ${value}`);
    row('program', programText(stage));
    row('argv', JSON.stringify(stage.argv));
    row('cwd', stage.cwd);
    for (const [name, value] of Object.entries(stage.env)) row('env', `${name}=${value}`);
    row('ok-codes', stage.okCodes.join(', '));
    if (stage.optional) row('optional', 'yes: its failure never decides the verdict');
    if (stage.timeoutMs !== null) row('timeout', durationText(stage.timeoutMs));
    if (stage.maxStdout !== null) row('max-stdout', sizeText(stage.maxStdout));
    if (stage.maxStderr !== null) row('max-stderr', sizeText(stage.maxStderr));
    for (const warning of stage.warnings) row('warning', warning);
    if (stage.error) row('error', `${stage.error.code}: ${stage.error.message}`);
  }
  if (document.output) lines.push(...renderOutput(document.output));
  lines.push('settings');
  for (const [key, value] of showSettings(document.settings)) lines.push(`  ${key.padEnd(14)} ${value}`);
  const outcome = `exit ${document.exitCode} (${document.reason})`;
  // A -c text's commands fail alone, as in bash: a run would go on past one that cannot start.
  const consequence = document.steps
    ? 'a run would run the text and fail each such command alone, as bash does'
    : 'a run would start no stage';
  lines.push(
    document.ok
      ? `dry run: ok, ${outcome}; nothing was started`
      : `dry run: not ok, ${outcome}; ${consequence}`,
  );
  return `${lines.join('\n')}\n`;
}

function programText(stage: DryRunStage): string {
  if (stage.resolvedPath === null) return stage.error?.code === 'ENOENT' ? 'not found' : 'cannot be started';
  if (!stage.ok) return `${stage.resolvedPath} (cannot be started)`;
  return stage.interpreter ? `${stage.resolvedPath} (run by ${stage.interpreter})` : stage.resolvedPath;
}
