import path from 'node:path';
import { AGENT_ENV, AGENT_SETTINGS, withAgentEnv } from '../agent/agent-defaults.js';
import { RequestError } from '../errors.js';
import { defaultLedgerPath } from '../facts/ledger.js';
import { assemblePlan, readOkCodes, type SpecInput } from '../inputs/assemble-plan.js';
import { checkWritableFile } from '../inputs/check-paths.js';
import { stagesFromArgv } from '../inputs/command-stages.js';
import { settingsFromFlags } from '../settings/derive.js';
import { planShellText } from '../shell/plan-shell-text.js';
import type { Plan, Settings, StageSpec } from '../types.js';
import { ciRunSettings } from './ci-settings.js';
import { checkJunitTarget } from './junit-target.js';
import type { CliOptions } from './options.js';

export type { SpecInput } from '../inputs/assemble-plan.js';

// Exactly one way to say what to run; checked before a spec file is even read.
export function checkOneInput(options: CliOptions): void {
  const inputs = [options.argv.length > 0, options.command !== undefined, options.file !== undefined];
  const given = inputs.filter(Boolean).length;
  if (given === 0) {
    throw new RequestError(
      'usage.no-pipeline',
      'nothing to run: give a command after --, an inline pipeline with -c, or a spec file with -f (see safe-run --help)',
    );
  }
  if (given > 1) {
    throw new RequestError('usage.conflict', 'give only one of: a command after --, -c PIPELINE, -f FILE');
  }
}

function commandStages(options: CliOptions, spec: SpecInput | null): [Plan['source'], StageSpec[]] {
  if (spec) return ['spec', spec.stages];
  return ['argv', stagesFromArgv(options.argv)];
}

// The settings the command line sets. The ledger is on by default for the CLI only (the library
// keeps none unless told).
function flagSettings(options: CliOptions, env: NodeJS.ProcessEnv): Partial<Settings> {
  const settings = settingsFromFlags((flag) => options.settings[flag]);
  if (settings.facts === undefined) settings.facts = defaultLedgerPath(env);
  return settings;
}

// Merges defaults, SAFE_RUN_OPTIONS (`defaults`), the spec file (if any) and command-line flags
// (which win) into one validated plan.
export function buildPlan(
  options: CliOptions,
  spec: SpecInput | null,
  env: NodeJS.ProcessEnv,
  defaults: Partial<Settings> = {},
): Plan {
  checkOneInput(options);
  if (options.fallback !== undefined && options.command === undefined) {
    throw new RequestError('usage.fallback', '--fallback applies to -c text only');
  }
  const agent: Partial<Settings> = options.agent ? AGENT_SETTINGS : {};
  // `-f -` has read stdin for the spec: unless told otherwise, the first stage reads nothing rather
  // than whatever is left of it (or, from a terminal, the user's next keystrokes).
  const stdinTaken: Partial<Settings> =
    options.file === '-' && spec?.settings.stdin === undefined ? { stdin: { kind: 'null' } } : {};
  const request = {
    layers: [
      ciRunSettings(options, env),
      defaults,
      agent,
      stdinTaken,
      spec?.settings ?? {},
      flagSettings(options, env),
    ],
    okCodes: (options.okCodes ?? []).map(readOkCodes),
    cwd: options.cwd === undefined ? null : cwdPath(options.cwd),
  };
  let plan: Plan;
  if (options.command !== undefined) {
    plan = planShellText(options.command, request, {
      // An agent's harness cannot rewrite a refused line: under --agent bash takes it (--fallback none: not).
      fallback: options.fallback === 'bash' || (options.agent === true && options.fallback !== 'none'),
      env: options.agent ? { ...AGENT_ENV } : null,
      base: env,
    });
  } else {
    const [source, declared] = commandStages(options, spec);
    const stages = options.agent ? declared.map(withAgentEnv) : declared;
    plan = assemblePlan({ source, stages, ...request });
  }
  if (options.report !== undefined) checkWritableFile(options.report, '--report');
  if (options.junit !== undefined) checkJunitTarget(options.junit);
  return plan;
}

function cwdPath(dir: string): string {
  if (dir === '') throw new RequestError('usage.cwd', '--cwd: empty; name a directory');
  return path.resolve(dir);
}
